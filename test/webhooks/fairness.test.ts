// Fairness: an endpoint that holds every delivery (up to the 10 s timeout) gets a bounded share
// of the delivery slots, so the deliveries to another webhook are not held up behind it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { call, startStallingRig, waitFor, type StallingRig } from './helpers.js';

const EVENTS = 150;

let rig: StallingRig;
beforeAll(async () => {
  rig = await startStallingRig();
});
afterAll(async () => rig?.close());

describe('delivery fairness', () => {
  it('a stalling endpoint holds a bounded share of the slots; another webhook gets every delivery meanwhile', async () => {
    const { s, fast, slow } = rig;
    for (const url of [`${slow.url}/slow`, `${fast.url}/fast`]) {
      expect((await call(s.url, s.apiKey, 'POST', '/webhooks', { url, events: ['company.updated'] })).status).toBe(201);
    }
    // Both webhooks get every event; the stalling one's jobs are as old as the fast one's.
    for (let i = 0; i < EVENTS; i++) {
      const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
      await s.store.outbox.append(event, null, { county: '01', status: 'aktiv' });
    }
    // Bounded below the 10 s attempt timeout: had the stalling endpoint taken all 64 slots, no
    // slot would free before its attempts time out, and the fast deliveries could not all arrive.
    await waitFor(() => fast.received.length >= EVENTS, { timeoutMs: 8000, what: `${EVENTS} deliveries to the fast endpoint` });
    expect(new Set(fast.received.map((r) => r.headers['bolag-event-id'])).size).toBe(EVENTS);
    // The stalling endpoint was being tried all along, never with more than its share at once.
    expect(slow.received).toBeGreaterThan(0);
    expect(slow.mostOpen).toBeLessThanOrEqual(4); // its share: 4 attempts a process
  });
});
