// The delivery worker's webhook rows: read once within their age, read again after a change
// through this process, never kept from a read that a change overtook, and never kept when
// the webhook does not receive.
import { describe, expect, it } from 'vitest';
import type { StoredWebhook } from '../../src/store/webhooks.js';
import { WebhookRows } from '../../src/webhooks/webhook-rows.js';

const row = (url: string): StoredWebhook => ({
  id: 'whk_1', account_id: 'acct_1', url, events: ['company.updated'], filters: {}, status: 'active', secret: 'whsec_1',
  previous_secret: null, previous_secret_expires_at: null, consecutive_failures: 0, failing_since: null, created_at: '2026-11-28T00:00:00.000Z',
});

describe('WebhookRows', () => {
  it('reads a row once within its age, again after it or after a change', async () => {
    let stored = row('https://a.example/1');
    let reads = 0;
    const rows = new WebhookRows(async () => (reads++, stored), 50);
    expect((await rows.get('whk_1'))?.url).toBe('https://a.example/1');
    stored = row('https://a.example/2');
    expect((await rows.get('whk_1'))?.url).toBe('https://a.example/1');
    expect(reads).toBe(1);
    rows.changed('whk_1');
    expect((await rows.get('whk_1'))?.url).toBe('https://a.example/2');
    stored = row('https://a.example/3');
    await new Promise((r) => setTimeout(r, 60));
    expect((await rows.get('whk_1'))?.url).toBe('https://a.example/3');
    expect(reads).toBe(3);
  });

  it('keeps no row that does not receive: deleted or disabled is read again every time', async () => {
    let stored: StoredWebhook | null = { ...row('https://a.example/'), status: 'disabled' };
    let reads = 0;
    const rows = new WebhookRows(async () => (reads++, stored), 60_000);
    expect((await rows.get('whk_1'))?.status).toBe('disabled');
    stored = row('https://a.example/'); // re-enabled by another process
    expect((await rows.get('whk_1'))?.status).toBe('active');
    expect(reads).toBe(2);
    rows.changed('whk_1');
    stored = null;
    expect(await rows.get('whk_1')).toBeNull();
    expect(await rows.get('whk_1')).toBeNull();
    expect(reads).toBe(4);
  });

  it('does not keep what a read returned when a change came while it ran', async () => {
    let release: (w: StoredWebhook) => void = () => undefined;
    let reads = 0;
    const rows = new WebhookRows((): Promise<StoredWebhook> => (reads++, new Promise((r) => (release = r))), 60_000);
    const slow = rows.get('whk_1');
    rows.changed('whk_1');
    release(row('https://old.example/'));
    expect((await slow)?.url).toBe('https://old.example/');
    const next = rows.get('whk_1');
    release(row('https://new.example/'));
    expect((await next)?.url).toBe('https://new.example/');
    expect(reads).toBe(2);
  });
});
