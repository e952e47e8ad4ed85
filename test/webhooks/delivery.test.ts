// Deliveries end to end: a real server with its workers, a real receiver on 127.0.0.1
// (insecure mode), events through the outbox as imports and exports write them.
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BolagEvent } from '../../src/core/events.js';
import { newId } from '../../src/core/ids.js';
import { eventSubject } from '../../src/import/plan-record.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { call, newKey, sleep, startReceiver, startTestServer, waitFor, type Receiver, type TestServer } from './helpers.js';

const stripe = new Stripe('sk_test_x');
const FAST = [0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15];

function companyEvent(type: string, data: Record<string, unknown> = {}): BolagEvent {
  return { id: newId('evt'), type, created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', ...data } };
}

async function createHook(s: TestServer, key: string, url: string, events: string[], filters?: Record<string, string[]>) {
  const r = await call(s.url, key, 'POST', '/webhooks', { url, events, ...(filters ? { filters } : {}) });
  expect(r.status).toBe(201);
  return r.body.data as { id: string; secret: string };
}

async function deliveries(s: TestServer, key: string, id: string) {
  return (await call(s.url, key, 'GET', `/webhooks/${id}/deliveries?limit=100`)).body.data as {
    event_id: string;
    attempt: number;
    status_code: number | null;
    duration_ms: number | null;
    error: string | null;
  }[];
}

describe('delivery', () => {
  let s: TestServer;
  let r: Receiver;
  beforeAll(async () => {
    s = await startTestServer({ allowInsecureWebhooks: true, webhookRetryScheduleSeconds: FAST, webhookDisableAfterSeconds: 1 });
  });
  afterAll(async () => s.close());
  afterEach(async () => r?.close());

  it('POSTs the spec headers and a body whose exact bytes are signed; stripe verifies it', async () => {
    r = await startReceiver();
    const w = await createHook(s, s.apiKey, `${r.url}/in?src=bolag`, ['company.updated']);
    // A body with non-ASCII text: the signature is over the UTF-8 bytes sent.
    const event = companyEvent('company.updated', { changed_fields: ['name'], name: 'Åre Fjällbygg AB ✓' });
    await s.store.outbox.append(event, null, { county: '23', status: 'aktiv' });
    const got = await waitFor(() => r.received[0], { what: 'delivery' });
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/in?src=bolag');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('Bolag-Webhooks/1.0');
    expect(got.headers['bolag-event-id']).toBe(event.id);
    expect(got.headers['bolag-event-type']).toBe('company.updated');
    expect(got.raw.toString('utf8')).toBe(JSON.stringify(event));
    const header = String(got.headers['bolag-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature({ rawBody: got.raw, header, secrets: [w.secret] }).ok).toBe(true);
    expect(verifySignature({ rawBody: Buffer.concat([got.raw, Buffer.from(' ')]), header, secrets: [w.secret] }).ok).toBe(false);
    expect(stripe.webhooks.constructEvent(got.raw, header, w.secret).id).toBe(event.id);
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
    const [d] = await waitFor(() => deliveries(s, s.apiKey, w.id).then((x) => (x.length ? x : null)));
    expect(d).toMatchObject({ event_id: event.id, attempt: 1, status_code: 200, error: null });
    expect(d.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('retries on the schedule with the same event id and bytes, and a success resets', async () => {
    r = await startReceiver();
    r.respond = (_req, i) => (i < 7 ? 500 : 204);
    const w = await createHook(s, s.apiKey, `${r.url}/flaky`, ['company.created']);
    const ev = (await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`)).body.data.event_id;
    // Seven failures in a row: the webhook is failing.
    await waitFor(() => r.received.length >= 7, { what: '7 attempts' });
    const failing = await waitFor(async () => {
      const got = (await call(s.url, s.apiKey, 'GET', `/webhooks/${w.id}`)).body.data;
      return got.status === 'failing' ? got : null;
    });
    expect(failing.failing_since).not.toBeNull();
    // The eighth attempt succeeds: active again.
    await waitFor(() => r.received.length >= 8, { what: '8th attempt' });
    const back = await waitFor(async () => {
      const got = (await call(s.url, s.apiKey, 'GET', `/webhooks/${w.id}`)).body.data;
      return got.status === 'active' ? got : null;
    });
    expect(back.failing_since).toBeNull();
    expect(new Set(r.received.map((x) => x.headers['bolag-event-id']))).toEqual(new Set([ev]));
    expect(new Set(r.received.map((x) => x.raw.toString()))).toHaveProperty('size', 1);
    // Spaced by the (compressed) schedule, not hammered.
    for (let i = 1; i < r.received.length; i++) expect(r.received[i].at - r.received[i - 1].at).toBeGreaterThanOrEqual(120);
    const ds = await deliveries(s, s.apiKey, w.id);
    expect(ds.map((d) => d.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(ds[0]).toMatchObject({ status_code: 204, error: null });
    expect(ds[1]).toMatchObject({ status_code: 500, error: 'HTTP 500' });
  });

  it('gives up after the last retry', async () => {
    r = await startReceiver();
    r.respond = () => 503;
    const w = await createHook(s, s.apiKey, `${r.url}/down`, ['company.created']);
    await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    await waitFor(() => r.received.length >= 8, { what: '8 attempts' });
    await sleep(600);
    expect(r.received.length).toBe(8);
  });

  it('after the failing period the webhook is disabled and receives nothing until re-enabled', async () => {
    r = await startReceiver();
    r.respond = () => 500;
    const w = await createHook(s, s.apiKey, `${r.url}/dead`, ['company.created']);
    await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    await waitFor(async () => (await call(s.url, s.apiKey, 'GET', `/webhooks/${w.id}`)).body.data.status === 'failing', { what: 'failing' });
    // webhookDisableAfterSeconds is 1 here.
    await waitFor(async () => (await call(s.url, s.apiKey, 'GET', `/webhooks/${w.id}`)).body.data.status === 'disabled', { what: 'disabled' });
    await sleep(300);
    const before = r.received.length;
    r.respond = () => 200;
    await s.store.outbox.append(companyEvent('company.created'), null, { status: 'aktiv' });
    const t = await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    expect(t.status).toBe(400);
    await sleep(800);
    expect(r.received.length).toBe(before);
    // Re-enabled: deliveries flow again.
    const patched = await call(s.url, s.apiKey, 'PATCH', `/webhooks/${w.id}`, { status: 'active' });
    expect(patched.body.data).toMatchObject({ status: 'active', failing_since: null });
    const ev = companyEvent('company.created');
    await s.store.outbox.append(ev, null, { status: 'aktiv' });
    await waitFor(() => r.received.some((x) => x.headers['bolag-event-id'] === ev.id), { what: 'delivery after re-enable' });
  });

  it('after rotation every delivery carries two v1 signatures, old and new', async () => {
    r = await startReceiver();
    const w = await createHook(s, s.apiKey, `${r.url}/rot`, ['company.created']);
    const rotated = (await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/rotate-secret`)).body.data;
    await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    const got = await waitFor(() => r.received[0]);
    const header = String(got.headers['bolag-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [w.secret, rotated.secret]) {
      expect(verifySignature({ rawBody: got.raw, header, secrets: [secret] }).ok).toBe(true);
      expect(stripe.webhooks.constructEvent(got.raw, header, secret).type).toBe('webhook.test');
    }
    expect(verifySignature({ rawBody: got.raw, header, secrets: ['whsec_someone_else'] }).ok).toBe(false);
  });

  it('a change through the API is sent with at the next delivery, though the worker keeps rows a moment', async () => {
    r = await startReceiver();
    const w = await createHook(s, s.apiKey, `${r.url}/before`, ['company.created']);
    await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    await waitFor(() => r.received[0], { what: 'the first delivery' });
    // Within the second the delivery worker keeps the row it read: the PATCH and the rotation must reach it.
    expect((await call(s.url, s.apiKey, 'PATCH', `/webhooks/${w.id}`, { url: `${r.url}/after` })).status).toBe(200);
    const rotated = (await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/rotate-secret`)).body.data;
    await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
    const got = await waitFor(() => r.received[1], { what: 'the second delivery' });
    expect(got.url).toBe('/after');
    expect(verifySignature({ rawBody: got.raw, header: String(got.headers['bolag-signature']), secrets: [rotated.secret] }).ok).toBe(true);
  });

  it('does not follow a redirect', async () => {
    r = await startReceiver();
    const target = await startReceiver();
    try {
      r.respond = () => 307;
      const w = await createHook(s, s.apiKey, `${r.url}/moved`, ['company.created']);
      await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`);
      const [d] = await waitFor(() => deliveries(s, s.apiKey, w.id).then((x) => (x.length ? x : null)));
      expect(d).toMatchObject({ status_code: 307, error: 'redirect not followed (HTTP 307)' });
      expect(target.received).toHaveLength(0);
      await call(s.url, s.apiKey, 'DELETE', `/webhooks/${w.id}`);
    } finally {
      await target.close();
    }
  });

  it('restricts company events by filters, with search semantics', async () => {
    r = await startReceiver();
    const page = await s.store.companies.search(
      { filters: { status: null, radius_km: 10 }, sort: { key: 'name', descending: false }, limit: 100, include_total: false, expand: [] },
      null,
    );
    const a = page.rows.find((c) => c.county_code === '01') ?? page.rows[0];
    const b = page.rows.find((c) => c.county_code !== a.county_code && c.category.slug !== a.category.slug)!;
    const countyName = a.county;
    const hooks = {
      byCountyName: await createHook(s, s.apiKey, `${r.url}/county`, ['company.updated'], { county: [countyName.toUpperCase()] }),
      byCountyCode: await createHook(s, s.apiKey, `${r.url}/code`, ['company.updated'], { county: [a.county_code] }),
      byPostal: await createHook(s, s.apiKey, `${r.url}/postal`, ['company.updated'], { postal_code: [a.address.postal_code.slice(0, 2)] }),
      bySni: await createHook(s, s.apiKey, `${r.url}/sni`, ['company.updated'], { sni: [a.sni_codes[0].slice(0, 2)] }),
      byOrgNr: await createHook(s, s.apiKey, `${r.url}/org`, ['company.updated'], { org_nr: [a.org_nr.replace('-', '')] }),
      none: await createHook(s, s.apiKey, `${r.url}/all`, ['company.updated']),
      other: await createHook(s, s.apiKey, `${r.url}/other`, ['company.updated'], { status: ['konkurs'], county: [a.county_code] }),
      wrongType: await createHook(s, s.apiKey, `${r.url}/created`, ['company.created']),
    };
    const evA = companyEvent('company.updated', { company_id: a.id, org_nr: a.org_nr });
    const evB = companyEvent('company.updated', { company_id: b.id, org_nr: b.org_nr });
    await s.store.outbox.append(evA, null, eventSubject(a));
    await s.store.outbox.append(evB, null, eventSubject(b));
    await waitFor(() => r.received.length >= 7, { what: 'deliveries' });
    await sleep(500);
    const seen = (path: string) => r.received.filter((x) => x.url === path).map((x) => x.headers['bolag-event-id']).sort();
    expect(seen('/county')).toEqual([evA.id]);
    expect(seen('/code')).toEqual([evA.id]);
    expect(seen('/org')).toEqual([evA.id]);
    expect(seen('/postal')).toContain(evA.id);
    expect(seen('/sni')).toContain(evA.id);
    expect(seen('/all')).toEqual([evA.id, evB.id].sort());
    expect(seen('/other')).toEqual(a.status === 'konkurs' ? [evA.id] : []);
    expect(seen('/created')).toEqual([]);
    for (const h of Object.values(hooks)) await call(s.url, s.apiKey, 'DELETE', `/webhooks/${h.id}`);
  });

  it("sends an export's events only to that account's webhooks", async () => {
    r = await startReceiver();
    const keyB = await newKey(s.store, 'exporter-b', 'pro', ['webhooks:manage', 'exports:read']);
    const accountA = (await s.store.accounts.findAccountByName('local'))!;
    await createHook(s, s.apiKey, `${r.url}/a`, ['export.completed', 'export.failed']);
    await createHook(s, keyB, `${r.url}/b`, ['export.completed', 'export.failed']);
    const done: BolagEvent = {
      id: newId('evt'),
      type: 'export.completed',
      created_at: new Date().toISOString(),
      data: { export_id: 'exp_1', row_count: 3, download_url: 'https://x/y', expires_at: new Date().toISOString() },
    };
    await s.store.outbox.append(done, accountA.id, null);
    // An export event without an owner goes nowhere.
    await s.store.outbox.append({ ...done, id: newId('evt') }, null, null);
    await waitFor(() => r.received.length >= 1);
    await sleep(500);
    expect(r.received.map((x) => x.url)).toEqual(['/a']);
    expect(r.received[0].headers['bolag-event-id']).toBe(done.id);
  });
});

describe('restart', () => {
  it('deliveries pending at shutdown, and events written while down, are delivered after a restart', async () => {
    const r = await startReceiver();
    const s = await startTestServer({ allowInsecureWebhooks: true, webhookRetryScheduleSeconds: [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5] });
    try {
      r.respond = () => 503;
      const w = await createHook(s, s.apiKey, `${r.url}/restart`, ['company.status_changed']);
      const ev = (await call(s.url, s.apiKey, 'POST', `/webhooks/${w.id}/test`)).body.data.event_id;
      await waitFor(() => r.received.length >= 1);
      await s.restart({ port: 0, seedCount: 0 });
      // Down and back: written while the server was stopped.
      const later = companyEvent('company.status_changed', { previous_status: 'aktiv', status: 'konkurs' });
      await s.store.outbox.append(later, null, { status: 'konkurs' });
      r.respond = () => 200;
      await waitFor(() => r.received.filter((x) => x.headers['bolag-event-id'] === ev).length >= 2, { what: 'retry after restart' });
      await waitFor(() => r.received.some((x) => x.headers['bolag-event-id'] === later.id), { what: 'event written while down' });
      // The attempt is recorded just after the receiver sees it.
      const ds = await waitFor(async () => {
        const all = (await deliveries(s, s.apiKey, w.id)).filter((d) => d.event_id === ev);
        return all.length >= 2 ? all : null;
      });
      expect(ds.map((d) => d.attempt)).toEqual([2, 1]);
      expect(ds[0]).toMatchObject({ status_code: 200, error: null });
      expect(ds[1]).toMatchObject({ status_code: 503, error: 'HTTP 503' });
    } finally {
      await s.close();
      await r.close();
    }
  });
});
