// The built binary against real servers: bolag webhooks …, bolag listen, bolag verify.
// Run `npm run build` first.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultPromise } from 'execa';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.js';
import { signPayload } from '../../src/webhooks/signature.js';
import { bolag, BUILT, cleanEnv, jsonLines, ROOT } from '../cli/helpers.js';
import { call, startReceiver, startTestServer, waitFor, type TestServer } from './helpers.js';

const stripe = new Stripe('sk_test_x');
const SECRET_OLD = 'whsec_listen_old_0123456789';
const SECRET_NEW = 'whsec_listen_new_0123456789';

function event(type = 'company.updated', id = newId('evt')) {
  return JSON.stringify({ id, type, created_at: new Date().toISOString(), data: { company_id: 'c1', org_nr: '556000-0001', changed_fields: ['name'] } });
}

function post(url: string, body: string | Buffer, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

const now = () => Math.floor(Date.now() / 1000);

/** A running `bolag listen` with its output so far. */
interface Listener {
  proc: ResultPromise;
  url: string;
  out(): string;
  err(): string;
  stop(): Promise<{ exitCode?: number }>;
}

async function listen(args: string[], env: Record<string, string> = cleanEnv()): Promise<Listener> {
  const proc = bolag(['listen', ...args], { env, buffer: false });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const url = await waitFor(() => /Ready: listening on (\S+)/.exec(err)?.[1] ?? (proc.exitCode !== null ? 'exited' : null), {
    timeoutMs: 15_000,
    what: 'listener ready',
  });
  if (url === 'exited') throw new Error(`listen exited: ${err}`);
  return {
    proc,
    url,
    out: () => out,
    err: () => err,
    stop: async () => {
      proc.kill('SIGINT');
      const r = await proc;
      return { exitCode: r.exitCode };
    },
  };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

describe.skipIf(!BUILT)('bolag listen', { timeout: 30_000 }, () => {
  it('verifies with any of its secrets, rejects bad signatures with 400, skips duplicates, prints JSONL', async () => {
    const l = await listen(['--port', '0', '--secret', `${SECRET_OLD},${SECRET_NEW}`, '--format', 'jsonl']);
    try {
      const a = event();
      const b = event();
      const c = event('financials.published');
      const idOf = (body: string) => JSON.parse(body).id as string;
      const sign = (body: string, secrets: string[], t = now()) => signPayload(body, secrets, t);
      // Signed with the new secret; then with only the old; then the rotation header with both.
      expect((await post(`${l.url}hook`, a, { 'bolag-signature': sign(a, [SECRET_NEW]), 'bolag-event-id': idOf(a) })).status).toBe(200);
      expect((await post(`${l.url}hook`, b, { 'bolag-signature': sign(b, [SECRET_OLD]), 'bolag-event-id': idOf(b) })).status).toBe(200);
      // The same event again (a retry): 200, not printed twice.
      expect((await post(`${l.url}hook`, a, { 'bolag-signature': sign(a, [SECRET_NEW, SECRET_OLD]), 'bolag-event-id': idOf(a) })).status).toBe(200);
      // Stripe's own test header generator.
      const header = stripe.webhooks.generateTestHeaderString({ payload: c, secret: SECRET_NEW });
      expect((await post(`${l.url}`, c, { 'bolag-signature': header })).status).toBe(200);
      // Signed, but not JSON: still one JSON line on stdout, the body kept as `raw`.
      expect((await post(`${l.url}hook`, 'not json', { 'bolag-signature': sign('not json', [SECRET_NEW]), 'bolag-event-id': 'evt_not_json' })).status).toBe(200);
      // Rejections: tampered body, wrong secret, stale, future, malformed, missing.
      const bad: [string, Record<string, string>][] = [
        [a.replace('name', 'NAME'), { 'bolag-signature': sign(a, [SECRET_NEW]) }],
        [a, { 'bolag-signature': sign(a, ['whsec_wrong']) }],
        // Well past the 300 s tolerance either way, so a slow machine cannot bring them back inside it.
        [a, { 'bolag-signature': sign(a, [SECRET_NEW], now() - 360) }],
        [a, { 'bolag-signature': sign(a, [SECRET_NEW], now() + 360) }],
        [a, { 'bolag-signature': 'v1=abc' }],
        [a, {}],
      ];
      for (const [body, headers] of bad) {
        const r = await post(`${l.url}hook`, body, headers);
        expect(r.status, JSON.stringify(headers)).toBe(400);
      }
      await waitFor(() => l.out().split('\n').length > 4, { what: 'four events' });
      const printed = jsonLines(l.out());
      expect(printed.map((e) => e.id)).toEqual([idOf(a), idOf(b), idOf(c), 'evt_not_json']);
      expect(printed[3]).toMatchObject({ raw: 'not json' });
      expect(l.out().split('\n')[0]).toBe(a);
      const { exitCode } = await l.stop();
      expect(exitCode).toBe(130);
      expect(l.err()).toContain('no matching signature');
      expect(l.err()).toContain('timestamp outside the tolerance');
      expect(jsonLines(l.out())).toHaveLength(4);
    } finally {
      l.proc.kill('SIGKILL');
    }
  });

  it('prints a pretty line per delivery', async () => {
    const l = await listen(['--port', '0', '--secret', SECRET_NEW, '--format', 'pretty']);
    try {
      const a = event('company.status_changed');
      await post(l.url, a, { 'bolag-signature': signPayload(a, [SECRET_NEW], now()) });
      await waitFor(() => l.out().includes('company.status_changed'));
      expect(l.out()).toMatch(/^\d\d:\d\d:\d\d {2}company\.status_changed {2}evt_\S+ {2}556000-0001/);
    } finally {
      await l.stop();
    }
  });

  it('--forward-to passes the exact bytes, headers and query string on, follows no redirect, and prints the status', async () => {
    const target = await startReceiver();
    const elsewhere = await startReceiver();
    target.respond = (r) => (r.url.startsWith('/moved') ? 302 : 202);
    const l = await listen(['--port', '0', '--secret', SECRET_NEW, '--format', 'jsonl', '--forward-to', `${target.url}/fwd`]);
    try {
      // Bytes that JSON round-tripping would change: spacing, escapes, key order.
      const body = Buffer.from('{"id":"evt_fwd1","type":"company.updated" ,"data":{"name":"\\u00c5re  ✓","b":1,"a":2}}');
      const sig = signPayload(body, [SECRET_NEW], now());
      const r = await post(`${l.url}any/path?a=1&b=%20x&a=2`, body, { 'bolag-signature': sig, 'bolag-event-id': 'evt_fwd1', 'bolag-event-type': 'company.updated', 'x-extra': 'kept' });
      expect(r.status).toBe(200);
      const got = await waitFor(() => target.received[0]);
      expect(got.raw.equals(body)).toBe(true);
      expect(got.url).toBe('/fwd?a=1&b=%20x&a=2');
      expect(got.headers['bolag-signature']).toBe(sig);
      expect(got.headers['bolag-event-id']).toBe('evt_fwd1');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['x-extra']).toBe('kept');
      await waitFor(() => l.err().includes('forwarded evt_fwd1: 202') && jsonLines(l.out()).length === 1, { what: 'status printed' });
      await l.stop();

      // A redirecting target: reported, not followed.
      const l2 = await listen(['--port', '0', '--secret', SECRET_NEW, '--format', 'jsonl', '--forward-to', `${target.url}/moved?x=1`]);
      const b2 = event();
      await post(`${l2.url}?q=2`, b2, { 'bolag-signature': signPayload(b2, [SECRET_NEW], now()) });
      await waitFor(() => l2.err().includes('302 (redirect not followed)'), { what: 'redirect status' });
      expect(target.received.at(-1)?.url).toBe('/moved?x=1&q=2');
      expect(elsewhere.received).toHaveLength(0);
      await l2.stop();
    } finally {
      l.proc.kill('SIGKILL');
      await target.close();
      await elsewhere.close();
    }
  });

  it('--exec runs a command per delivery with the event on stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-exec-'));
    // bolag's own secrets stay out of the command's environment; the rest of it is there.
    const env = cleanEnv({ BOLAG_API_KEY: 'bk_not_for_the_command', BOLAG_WEBHOOK_SECRET: SECRET_OLD, EXTRA_FOR_COMMAND: 'kept' });
    const l = await listen(
      ['--port', '0', '--secret', SECRET_NEW, '--format', 'jsonl', '--exec', `cat > "${dir}/$BOLAG_EVENT_ID.json"; echo done-$BOLAG_EVENT_TYPE key-\${BOLAG_API_KEY:-none} secret-\${BOLAG_WEBHOOK_SECRET:-none} $EXTRA_FOR_COMMAND`],
      env,
    );
    try {
      const a = event('company.created', 'evt_exec1');
      const b = event('company.updated', 'evt_exec2');
      await post(l.url, a, { 'bolag-signature': signPayload(a, [SECRET_NEW], now()), 'bolag-event-id': 'evt_exec1', 'bolag-event-type': 'company.created' });
      await post(l.url, b, { 'bolag-signature': signPayload(b, [SECRET_NEW], now()), 'bolag-event-id': 'evt_exec2', 'bolag-event-type': 'company.updated' });
      await waitFor(() => l.err().includes('evt_exec2: exec: exit 0') && jsonLines(l.out()).length === 2, { what: 'exec result' });
      expect(readFileSync(join(dir, 'evt_exec1.json'), 'utf8')).toBe(a);
      expect(readFileSync(join(dir, 'evt_exec2.json'), 'utf8')).toBe(b);
      expect(l.err()).toContain('done-company.created key-none secret-none kept');
      // The command's output does not pollute the event stream.
      expect(jsonLines(l.out()).map((e) => e.id)).toEqual(['evt_exec1', 'evt_exec2']);
    } finally {
      await l.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start without a secret', async () => {
    const r = await bolag(['listen', '--port', '0']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('--secret');
  });
});

describe.skipIf(!BUILT)('against a running service', { timeout: 30_000 }, () => {
  let s: TestServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    s = await startTestServer({ allowInsecureWebhooks: true, webhookRetryScheduleSeconds: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2] });
    env = cleanEnv({ BOLAG_BASE_URL: s.url, BOLAG_API_KEY: s.apiKey, BOLAG_HOME: mkdtempSync(join(tmpdir(), 'bolag-home-')) });
  });
  afterAll(async () => {
    await s?.close();
    if (env?.BOLAG_HOME) rmSync(env.BOLAG_HOME, { recursive: true, force: true });
  });

  it('--register-url creates the webhook, receives verified deliveries with its secret, and deletes it on exit', async () => {
    const port = await freePort();
    const l = await listen(['--port', String(port), '--register-url', `http://127.0.0.1:${port}/hook`, '--events', 'company.updated', '--format', 'jsonl'], env);
    try {
      const id = /Registered webhook (whk_\S+)/.exec(l.err())?.[1];
      expect(id).toBeDefined();
      const listed = await call(s.url, s.apiKey, 'GET', '/webhooks');
      expect(listed.body.data.map((w: { id: string }) => w.id)).toContain(id);
      const t = await call(s.url, s.apiKey, 'POST', `/webhooks/${id}/test`);
      const ev = { id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c', org_nr: '556000-0001', changed_fields: ['name'] } };
      await s.store.outbox.append(ev, null, { status: 'aktiv' });
      await waitFor(() => jsonLines(l.out()).length >= 2, { what: 'two deliveries' });
      expect(jsonLines(l.out()).map((e) => e.id).sort()).toEqual([t.body.data.event_id, ev.id].sort());
      const ds = (await call(s.url, s.apiKey, 'GET', `/webhooks/${id}/deliveries`)).body.data;
      expect(ds.every((d: { status_code: number }) => d.status_code === 200)).toBe(true);
      const { exitCode } = await l.stop();
      expect(exitCode).toBe(130);
      expect(l.err()).toContain(`Deleted webhook ${id}`);
      expect((await call(s.url, s.apiKey, 'GET', `/webhooks/${id}`)).status).toBe(404);
    } finally {
      l.proc.kill('SIGKILL');
    }
  });

  // Found by an exploratory run (2026-11-29): with a profile, `timeout` (SIGTERM) or a closed
  // terminal (SIGHUP) killed the listener (143, 129) before it deleted its webhook.
  it('--register-url with a profile deletes the webhook on SIGTERM and on SIGHUP', async () => {
    const home = mkdtempSync(join(tmpdir(), 'bolag-listen-profile-'));
    const profileEnv = cleanEnv({ HOME: home, BOLAG_HOME: join(home, 'bolag'), XDG_CONFIG_HOME: join(home, 'config') });
    try {
      const login = await bolag(['login', '--base-url', s.url, '--api-key', s.apiKey], { env: profileEnv });
      expect(login.exitCode, String(login.stderr)).toBe(0);
      for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
        const port = await freePort();
        const l = await listen(['--port', String(port), '--register-url', `http://127.0.0.1:${port}/hook`, '--events', 'company.updated'], profileEnv);
        try {
          const id = /Registered webhook (whk_\S+)/.exec(l.err())?.[1];
          expect(id, signal).toBeDefined();
          l.proc.kill(signal);
          const r = await l.proc;
          expect(r.exitCode, `${signal}: ${l.err()}`).toBe(130);
          expect(l.err(), signal).toContain(`Deleted webhook ${id}`);
          expect((await call(s.url, s.apiKey, 'GET', `/webhooks/${id}`)).status, signal).toBe(404);
        } finally {
          l.proc.kill('SIGKILL');
        }
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('--register-url into a pipe that closes (| head -1) still deletes the webhook', async () => {
    const port = await freePort();
    const l = await listen(['--port', String(port), '--register-url', `http://127.0.0.1:${port}/hook`, '--events', 'company.updated', '--format', 'jsonl'], env);
    try {
      const id = /Registered webhook (whk_\S+)/.exec(l.err())?.[1];
      expect(id).toBeDefined();
      // The reader goes away; the next delivery's line finds the pipe closed.
      l.proc.stdout!.destroy();
      await call(s.url, s.apiKey, 'POST', `/webhooks/${id}/test`);
      const r = await l.proc;
      expect(r.exitCode, l.err()).toBe(0);
      expect(l.err(), l.err()).toContain(`Deleted webhook ${id}`);
      expect((await call(s.url, s.apiKey, 'GET', `/webhooks/${id}`)).status).toBe(404);
    } finally {
      l.proc.kill('SIGKILL');
    }
  });

  it('Ctrl-C waits past its grace for --exec to finish the deliveries already answered, then deletes the webhook', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-exec-slow-'));
    const port = await freePort();
    const l = await listen(
      ['--port', String(port), '--register-url', `http://127.0.0.1:${port}/hook`, '--events', 'company.updated', '--format', 'jsonl', '--exec', `sleep 2; cat > "${dir}/$BOLAG_EVENT_ID.json"`],
      env,
    );
    try {
      const id = /Registered webhook (whk_\S+)/.exec(l.err())?.[1];
      const events = [0, 1, 2].map(() => ({ id: newId('evt'), type: 'company.updated', created_at: new Date().toISOString(), data: { company_id: 'c', org_nr: '556000-0001', changed_fields: ['name'] } }));
      for (const ev of events) await s.store.outbox.append(ev, null, { status: 'aktiv' });
      // All three answered 200 (so never sent again), the first command still running.
      await waitFor(async () => {
        const ds = (await call(s.url, s.apiKey, 'GET', `/webhooks/${id}/deliveries`)).body.data;
        return ds.filter((d: { status_code: number }) => d.status_code === 200).length === 3 || null;
      }, { what: 'three deliveries answered' });
      l.proc.kill('SIGINT');
      const r = await l.proc;
      expect(r.exitCode).toBe(130);
      // Three commands of 2 s: past the 3 s grace, and each ran.
      for (const ev of events) expect(readFileSync(join(dir, `${ev.id}.json`), 'utf8'), ev.id).toContain(ev.id);
      // Each printed once (in the order they arrived: a webhook gets up to 4 at once, so not always the events').
      expect(jsonLines(l.out()).map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
      expect(l.err()).toContain(`Deleted webhook ${id}`);
    } finally {
      l.proc.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bolag webhooks create|list|get|update|test|deliveries|rotate-secret|delete', async () => {
    const r = await startReceiver();
    try {
      const created = await bolag(['webhooks', 'create', '--url', `${r.url}/cli`, '--events', 'company.created,company.updated', '--filter', 'county=01,Uppsala', '--filter', 'status=aktiv'], { env });
      expect(created.exitCode, String(created.stderr)).toBe(0);
      const w = JSON.parse(String(created.stdout));
      expect(w.secret).toMatch(/^whsec_/);
      expect(w.filters).toEqual({ county: ['01', 'Uppsala'], status: ['aktiv'] });
      expect(String(created.stderr)).toContain('not shown again');

      const list = await bolag(['webhooks', 'list'], { env });
      const rows = jsonLines(String(list.stdout));
      expect(rows.map((x) => x.id)).toContain(w.id);
      expect(String(list.stdout)).not.toContain(w.secret);

      const got = JSON.parse(String((await bolag(['webhooks', 'get', w.id], { env })).stdout));
      expect(got).toMatchObject({ id: w.id, status: 'active' });
      expect(got.secret).toBeUndefined();

      const updated = JSON.parse(String((await bolag(['webhooks', 'update', w.id, '--events', 'company.created', '--clear-filters'], { env })).stdout));
      expect(updated).toMatchObject({ events: ['company.created'], filters: {} });

      const test = JSON.parse(String((await bolag(['webhooks', 'test', w.id], { env })).stdout));
      const delivered = await waitFor(() => r.received.find((x) => x.headers['bolag-event-id'] === test.event_id));
      expect(stripe.webhooks.constructEvent(delivered.raw, String(delivered.headers['bolag-signature']), w.secret).type).toBe('webhook.test');
      const ds = await waitFor(async () => {
        const out = jsonLines(String((await bolag(['webhooks', 'deliveries', w.id], { env })).stdout));
        return out.length ? out : null;
      });
      expect(ds[0]).toMatchObject({ event_id: test.event_id, status_code: 200, attempt: 1 });

      const table = await bolag(['webhooks', 'deliveries', w.id, '--format', 'table'], { env });
      expect(String(table.stdout)).toMatch(/TIME\s+EVENT\s+TYPE/);

      const rotated = JSON.parse(String((await bolag(['webhooks', 'rotate-secret', w.id], { env })).stdout));
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(w.secret);

      const del = await bolag(['webhooks', 'delete', w.id], { env });
      expect(del.exitCode).toBe(0);
      expect(JSON.parse(String(del.stdout))).toEqual({ id: w.id, deleted: true });
      const gone = await bolag(['webhooks', 'get', w.id], { env });
      expect(gone.exitCode).toBe(4);
    } finally {
      await r.close();
    }
  });

  it('exit codes: a refused URL is 2, bad flags are 2', async () => {
    const insecure = await startTestServer({ allowInsecureWebhooks: false, workers: false });
    try {
      const env2 = cleanEnv({ BOLAG_BASE_URL: insecure.url, BOLAG_API_KEY: insecure.apiKey });
      const r = await bolag(['webhooks', 'create', '--url', 'https://169.254.169.254/', '--events', 'company.created'], { env: env2 });
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toMatch(/url/);
      expect((await bolag(['webhooks', 'create', '--url', 'https://x.example.com/', '--events', 'company.deleted'], { env: env2 })).exitCode).toBe(2);
      expect((await bolag(['webhooks', 'create', '--url', 'https://x.example.com/', '--events', 'company.created', '--filter', 'revenue=1'], { env: env2 })).exitCode).toBe(2);
      expect((await bolag(['webhooks', 'update', 'whk_x'], { env: env2 })).exitCode).toBe(2);
    } finally {
      await insecure.close();
    }
  });
});

describe.skipIf(!BUILT)('secrets stay out of the logs', { timeout: 30_000 }, () => {
  it('the request log of a server with logging on never holds a webhook secret', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-log-'));
    const script = `
      const { startServer } = await import(${JSON.stringify(join(ROOT, 'dist/src/server/start.js'))});
      const s = await startServer({ port: 0, dbPath: ${JSON.stringify(join(dir, 'db'))}, seedCount: 100, logger: true, allowInsecureWebhooks: true });
      const auth = { authorization: 'Bearer ' + s.apiKey };
      const post = (path, body) => fetch(s.url + path, { method: 'POST', headers: body ? { ...auth, 'content-type': 'application/json' } : auth, body: body && JSON.stringify(body) }).then((r) => r.json());
      const c = await post('/webhooks', { url: 'http://127.0.0.1:9/x', events: ['company.updated'] });
      const r = await post('/webhooks/' + c.data.id + '/rotate-secret');
      await post('/webhooks/' + c.data.id + '/test');
      await new Promise((res) => setTimeout(res, 400));
      process.stdout.write(JSON.stringify([c.data.secret, r.data.secret]));
      await s.close();`;
    try {
      const { execa } = await import('execa');
      const r = await execa('node', ['--input-type=module', '-e', script], { reject: false, cwd: ROOT });
      // The secrets on stdout; the request log on stderr, where --verbose says it goes.
      const secrets = JSON.parse(String(r.stdout).trim()) as string[];
      expect(secrets.every((x) => x.startsWith('whsec_'))).toBe(true);
      const log = String(r.stderr);
      expect(log).toContain('request completed');
      for (const secret of secrets) expect(log).not.toContain(secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!BUILT)('bolag verify', { timeout: 30_000 }, () => {
  it('exit 0 for a valid saved delivery, 1 otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-verify-'));
    try {
      const body = event();
      const file = join(dir, 'delivery.json');
      writeFileSync(file, body);
      const fresh = signPayload(body, [SECRET_NEW, SECRET_OLD], now());
      const old = signPayload(body, [SECRET_NEW], now() - 3600);
      const ok = await bolag(['verify', '--secret', SECRET_OLD, '--signature', fresh, '--body-file', file]);
      expect(ok.exitCode, String(ok.stderr)).toBe(0);
      expect(String(ok.stdout)).toBe('');
      expect((await bolag(['verify', '--secret', 'whsec_wrong', '--signature', fresh, '--body-file', file])).exitCode).toBe(1);
      const stale = await bolag(['verify', '--secret', SECRET_NEW, '--signature', old, '--body-file', file]);
      expect(stale.exitCode).toBe(1);
      expect(String(stale.stderr)).toContain('--tolerance');
      expect((await bolag(['verify', '--secret', SECRET_NEW, '--signature', old, '--body-file', file, '--tolerance', '7200'])).exitCode).toBe(0);
      // The body on stdin, byte for byte.
      expect((await bolag(['verify', '--secret', SECRET_NEW, '--signature', fresh], { input: body })).exitCode).toBe(0);
      expect((await bolag(['verify', '--secret', SECRET_NEW, '--signature', fresh], { input: `${body}\n` })).exitCode).toBe(1);
      // A header made by stripe.
      const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET_NEW });
      expect((await bolag(['verify', '--secret', SECRET_NEW, '--signature', header, '--body-file', file])).exitCode).toBe(0);
      expect((await bolag(['verify', '--signature', fresh, '--body-file', file])).exitCode).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
