// A graceful stop hands an attempt still in flight back (after the grace period): no failed
// attempt is recorded for it, and the next start sends it again at once, not after the lease.
// So are the jobs the worker claimed ahead of its webhook's room. By default the grace is an
// attempt's own timeout, so a receiver that answers in time is not cut and sent the event again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, waitFor, type TestServer } from './helpers.js';

let s: TestServer;
let server: http.Server;
let url = '';
const requests: { eventId: string; res: http.ServerResponse }[] = [];
/** Every attempt's event id, answered or held. */
const received: string[] = [];
let answer = false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    received.push(String(req.headers['bolag-event-id']));
    if (answer) res.end('ok');
    else requests.push({ eventId: String(req.headers['bolag-event-id']), res });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  s = await startTestServer({ allowInsecureWebhooks: true, shutdownGraceMs: 300, webhookRetryScheduleSeconds: [3600] });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await s?.close();
});

describe('graceful stop of the delivery worker', () => {
  it('hands an attempt in flight back, uncounted; the next start delivers it at once', async () => {
    const hook = (await call(s.url, s.apiKey, 'POST', '/webhooks', { url, events: ['company.updated'] })).body.data;
    const eventId = (await call(s.url, s.apiKey, 'POST', `/webhooks/${hook.id}/test`)).body.data.event_id;
    await waitFor(() => requests.length === 1, { what: 'the first attempt' });
    // Stop while the receiver holds the attempt: after the 300 ms grace it is cut and handed back.
    answer = true;
    await s.restart();
    // The delivery lease is 35 s: an attempt within 10 s of the restart is the handed-back job.
    const list = await waitFor(async () => {
      const d = (await call(s.url, s.apiKey, 'GET', `/webhooks/${hook.id}/deliveries`)).body.data;
      return d.length > 0 && d;
    }, { timeoutMs: 10_000, what: 'the delivery after the restart' });
    expect(requests[0].eventId).toBe(eventId);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ event_id: eventId, attempt: 1, status_code: 200, error: null });
  });

  it('hands back the jobs claimed ahead, never started: the next start delivers each once, at once', async () => {
    answer = false;
    requests.length = 0;
    const hook = (await call(s.url, s.apiKey, 'POST', '/webhooks', { url: `${url}/ahead`, events: ['company.updated'] })).body.data;
    const sent: string[] = [];
    for (let i = 0; i < 8; i++) sent.push((await call(s.url, s.apiKey, 'POST', `/webhooks/${hook.id}/test`)).body.data.event_id);
    // Four in flight (the webhook's share), held by the receiver; the other four claimed ahead, leased.
    await waitFor(() => requests.length === 4, { what: 'four attempts in flight' });
    await waitFor(async () => (await s.store.jobs.leasedValues('webhook.deliver', 'event_id')).length === 8, { what: 'eight jobs leased' });
    answer = true;
    await s.restart();
    // Within 10 s of the restart (the lease is 35 s): every job, handed back and sent once.
    const list = await waitFor(async () => {
      const d = (await call(s.url, s.apiKey, 'GET', `/webhooks/${hook.id}/deliveries`)).body.data as { event_id: string; attempt: number; status_code: number }[];
      return d.length >= 8 && d;
    }, { timeoutMs: 10_000, what: 'the eight deliveries after the restart' });
    expect(list.map((d) => d.event_id).sort()).toEqual([...sent].sort());
    expect(list.every((d) => d.attempt === 1 && d.status_code === 200)).toBe(true);
  });

  it('by default lets an attempt in flight finish within its 10 s: a receiver answering in 6 s gets the event once', async () => {
    // The server's default grace (exploratory run, 2026-11-28: a stop cut attempts after 5 s,
    // and each was sent again after the restart).
    await s.restart({ shutdownGraceMs: undefined });
    answer = false;
    requests.length = 0;
    const hook = (await call(s.url, s.apiKey, 'POST', '/webhooks', { url: `${url}/slow`, events: ['company.updated'] })).body.data;
    const eventId = (await call(s.url, s.apiKey, 'POST', `/webhooks/${hook.id}/test`)).body.data.event_id;
    await waitFor(() => requests.length === 1, { what: 'the attempt' });
    const held = requests[0].res;
    const answered = setTimeout(() => held.end('ok'), 6_000);
    answer = true;
    const stoppedAt = Date.now();
    try {
      await s.restart({ shutdownGraceMs: undefined });
    } finally {
      clearTimeout(answered);
    }
    expect(Date.now() - stoppedAt).toBeGreaterThan(5_500);
    const list = (await call(s.url, s.apiKey, 'GET', `/webhooks/${hook.id}/deliveries`)).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ event_id: eventId, attempt: 1, status_code: 200, error: null });
    // Not handed back: the next start does not send it again.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(received.filter((id) => id === eventId)).toHaveLength(1);
  }, 30_000);
});
