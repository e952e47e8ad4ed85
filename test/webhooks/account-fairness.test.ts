// Fairness between accounts: one account with many webhooks at an endpoint that holds every
// delivery gets at most half of a process's 64 slots (4 a webhook would let 20 webhooks take
// all 64), so another account's deliveries go on meanwhile instead of waiting out the 10 s
// attempt timeouts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { call, newKey, startStallingRig, waitFor, type StallingRig } from './helpers.js';

const EVENTS = 100;
const STALLING_WEBHOOKS = 20;

let rig: StallingRig;
beforeAll(async () => {
  rig = await startStallingRig();
});
afterAll(async () => rig?.close());

it("an account's many stalling webhooks hold at most half the slots; another account gets every delivery meanwhile", async () => {
  const { s, fast, slow } = rig;
  for (let i = 0; i < STALLING_WEBHOOKS; i++) {
    expect((await call(s.url, s.apiKey, 'POST', '/webhooks', { url: `${slow.url}/slow/${i}`, events: ['company.updated'] })).status).toBe(201);
  }
  const other = await newKey(s.store, 'acc_other');
  expect((await call(s.url, other, 'POST', '/webhooks', { url: `${fast.url}/fast`, events: ['company.updated'] })).status).toBe(201);
  // Every webhook gets every event; the stalling account's jobs are as old as the other's, and
  // twenty times as many.
  for (let i = 0; i < EVENTS; i++) {
    const event: BolagEvent = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } };
    await s.store.outbox.append(event, null, { county: '01', status: 'aktiv' });
  }
  // Bounded below the 10 s attempt timeout: had the stalling account taken all 64 slots, none
  // would free before its attempts time out.
  await waitFor(() => fast.received.length >= EVENTS, { timeoutMs: 8000, what: `${EVENTS} deliveries to the other account` });
  expect(new Set(fast.received.map((r) => r.headers['bolag-event-id'])).size).toBe(EVENTS);
  // The stalling account was being tried all along, with at most its share at once.
  expect(slow.mostOpen).toBeGreaterThan(4);
  expect(slow.mostOpen).toBeLessThanOrEqual(32);
});
