// Small pieces: the sender's timeout and errors, the listener's bounded dedupe, the secrets a
// delivery is signed with over time, and how forwarding builds its URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { StoredWebhook } from '../../src/store/webhooks.js';
import { signingSecrets, isPastFailingPeriod } from '../../src/webhooks/health.js';
import { forwardUrl } from '../../src/webhooks/receiver/forward.js';
import { SeenIds } from '../../src/webhooks/receiver/seen-ids.js';
import { sendDelivery } from '../../src/webhooks/sender.js';

const webhook = (patch: Partial<StoredWebhook> = {}): StoredWebhook => ({
  id: 'whk_1',
  account_id: 'acc',
  url: 'https://x.example.com/',
  events: ['company.updated'],
  filters: {},
  status: 'active',
  secret: 'whsec_new',
  previous_secret: null,
  previous_secret_expires_at: null,
  consecutive_failures: 0,
  failing_since: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...patch,
});

describe('sendDelivery', () => {
  it('gives up after the timeout and says so', async () => {
    const server = http.createServer(() => {
      /* never answers */
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const dispatcher = new Agent();
    try {
      const started = Date.now();
      const r = await sendDelivery(
        { url: `http://127.0.0.1:${port}/`, body: '{}', eventId: 'evt_1', eventType: 'webhook.test', signature: 't=1,v1=00' },
        { dispatcher, timeoutMs: 300 },
      );
      expect(r).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 300 ms' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      server.closeAllConnections();
      server.close();
      await dispatcher.close();
    }
  });

  it('reports a refused connection', async () => {
    const dispatcher = new Agent();
    const r = await sendDelivery({ url: 'http://127.0.0.1:1/', body: '{}', eventId: 'e', eventType: 't', signature: 's' }, { dispatcher, timeoutMs: 2000 });
    expect(r).toMatchObject({ ok: false, statusCode: null, error: 'connection refused' });
    await dispatcher.close();
  });
});

describe('signing secrets over time', () => {
  it('signs with both secrets during the overlap and with the new one after it', () => {
    const w = webhook({ previous_secret: 'whsec_old', previous_secret_expires_at: '2026-01-02T00:00:00.000Z' });
    expect(signingSecrets(w, new Date('2026-01-01T12:00:00Z'))).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(w, new Date('2026-01-02T00:00:01Z'))).toEqual(['whsec_new']);
    expect(signingSecrets(webhook(), new Date())).toEqual(['whsec_new']);
  });

  it('a failing webhook is past its failing period after the disable time', () => {
    const w = webhook({ status: 'failing', failing_since: '2026-01-01T00:00:00.000Z' });
    expect(isPastFailingPeriod(w, new Date('2026-01-03T23:59:59Z'), 3 * 86400)).toBe(false);
    expect(isPastFailingPeriod(w, new Date('2026-01-04T00:00:00Z'), 3 * 86400)).toBe(true);
    expect(isPastFailingPeriod(webhook(), new Date('2030-01-01T00:00:00Z'), 1)).toBe(false);
  });
});

describe('SeenIds', () => {
  it('remembers at most its capacity, forgetting the oldest', () => {
    const seen = new SeenIds(3);
    expect(['a', 'b', 'c'].map((id) => seen.add(id))).toEqual([true, true, true]);
    expect(seen.add('b')).toBe(false);
    expect(seen.add('d')).toBe(true);
    expect(seen.size).toBe(3);
    expect(seen.add('a')).toBe(true); // forgotten
    for (let i = 0; i < 100_000; i++) seen.add(`x${i}`);
    expect(seen.size).toBe(3);
  });
});

describe('forwardUrl', () => {
  it('keeps the received query string as it came', () => {
    expect(forwardUrl('http://localhost:3000/hooks', '/any?a=1&b=%20x')).toBe('http://localhost:3000/hooks?a=1&b=%20x');
    expect(forwardUrl('http://localhost:3000/hooks?k=v', '/?a=1')).toBe('http://localhost:3000/hooks?k=v&a=1');
    expect(forwardUrl('http://localhost:3000/hooks', '/path')).toBe('http://localhost:3000/hooks');
    expect(forwardUrl('http://localhost:3000/hooks', '/path?')).toBe('http://localhost:3000/hooks');
  });
});
