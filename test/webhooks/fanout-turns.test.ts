// The fan-out of a backlog lets the event loop turn between its batches. On SQLite every store
// call completes synchronously, so a loop of awaits alone never gave the process's requests a
// turn: a weekly import's 90,000 events were fanned out in one unbroken run of 30 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { FANOUT_CURSOR, FanoutWorker } from '../../src/webhooks/fanout.js';
import { webhookSignals } from '../../src/webhooks/signals.js';
import { countTurns } from '../helpers/event-loop-turns.js';

const BATCH = 50;
const BATCHES = 8;

let dir: string;
let store: Store;

afterEach(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storeWithBacklog(): Promise<Store> {
  dir = mkdtempSync(join(tmpdir(), 'bolag-fanout-'));
  store = await openStore({ dbPath: join(dir, 'bolag.db') });
  for (let i = 0; i < BATCH * BATCHES; i++) {
    const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
    await store.outbox.append(event, null, { county: '01', status: 'aktiv' });
  }
  return store;
}

describe('fan-out of a backlog on SQLite', () => {
  it('gives the event loop a turn between full batches', async () => {
    const s = await storeWithBacklog();
    const last = (await s.outbox.readAfter(0, BATCH * BATCHES)).at(-1)!.seq;
    // The turn in which each batch's cursor is set.
    const turnsAtAdvance: number[] = [];
    const clock = countTurns();
    const advance = s.outbox.advanceCursor.bind(s.outbox);
    s.outbox.advanceCursor = async (...args: Parameters<Store['outbox']['advanceCursor']>) => {
      turnsAtAdvance.push(clock.turns);
      return advance(...args);
    };
    const worker = new FanoutWorker(s, { batchSize: BATCH, idlePollMs: 20 }).start();
    try {
      for (let i = 0; i < 200 && (await s.outbox.getCursor(FANOUT_CURSOR)) < last; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await worker.stop();
      clock.stop();
    }
    expect(await s.outbox.getCursor(FANOUT_CURSOR)).toBe(last);
    expect(turnsAtAdvance).toHaveLength(BATCHES);
    // Each batch in a later turn than the one before it.
    for (let i = 1; i < BATCHES; i++) expect(turnsAtAdvance[i]).toBeGreaterThan(turnsAtAdvance[i - 1]);
  });

  it('a worker woken while busy goes on in the next turn, not before it', async () => {
    const s = await storeWithBacklog();
    const signal = webhookSignals(s).fanout;
    signal.wake();
    let turned = false;
    setImmediate(() => (turned = true));
    await signal.wait(1000);
    expect(turned).toBe(true);
  });
});
