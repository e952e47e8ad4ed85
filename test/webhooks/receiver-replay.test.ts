// `bolag listen` takes an event's id and type from the signed body, not from the headers, which
// the signature does not cover. Found by a security review (2026-11-27): anyone who had seen one
// delivery could replay its exact bytes and signature within the 300 s tolerance under a new
// Bolag-Event-Id (and another Bolag-Event-Type), and it passed the duplicate check, running
// --exec and --forward-to again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type ReceivedDelivery, type RunningReceiver } from '../../src/webhooks/receiver/receiver.js';
import { generateSecret, signPayload } from '../../src/webhooks/signature.js';

const secret = generateSecret();
const delivered: ReceivedDelivery[] = [];
const duplicates: ReceivedDelivery[] = [];
let r: RunningReceiver;

beforeAll(async () => {
  r = await startWebhookReceiver({ port: 0, secrets: () => [secret], onDelivery: (d) => delivered.push(d), onDuplicate: (d) => duplicates.push(d) });
});
afterAll(async () => r?.close());

describe('bolag listen: a replayed delivery', () => {
  it('under another Bolag-Event-Id and Bolag-Event-Type is still the signed event, and a duplicate', async () => {
    const body = JSON.stringify({ id: 'evt_real', type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c1' } });
    const signature = signPayload(body, [secret], Math.floor(Date.now() / 1000));
    const send = (id: string, type: string) =>
      fetch(r.url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'bolag-signature': signature, 'bolag-event-id': id, 'bolag-event-type': type } });
    expect((await send('evt_real', 'company.updated')).status).toBe(200);
    expect((await send('evt_forged', 'export.completed')).status).toBe(200);
    await new Promise((res) => setTimeout(res, 50));
    expect(delivered.map((d) => [d.eventId, d.eventType])).toEqual([['evt_real', 'company.updated']]);
    expect(duplicates.map((d) => [d.eventId, d.eventType])).toEqual([['evt_real', 'company.updated']]);
  });
});
