// Two `bolag serve` processes (the built binary) on one PostgreSQL database behave as one
// service: same answers, cursors and links that work on either, work done once, events
// delivered once, one rate limit, and an export finished by one when the other is killed.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl, PG_SKIP_REASON } from '../helpers/pg.js';
import { call, startReceiver, waitFor, type Receiver } from '../webhooks/helpers.js';
import { bolagRun, sleep, startReplica, type Replica } from './helpers.js';

const run = DATABASE_URL ? describe : describe.skip;
const PASSWORD = 'hunter2-replica-secret';
if (!DATABASE_URL) describe('replicas on PostgreSQL', () => it.skip(PG_SKIP_REASON, () => {}));

run('two serve processes on one PostgreSQL database', () => {
  let dir: string;
  let url: string;
  let schema: string;
  let env: Record<string, string>;
  let flags: string[];
  let a: Replica;
  let b: Replica;
  let key: string;
  let receiver: Receiver;
  let sql: pg.Client;
  const extra: Replica[] = [];

  const sql0 = (text: string) => sql.query(text);
  const get = (r: Replica, path: string, k = key) => call(r.url, k, 'GET', path);
  const eventIds = (type: string) => receiver.received.filter((x) => x.headers['bolag-event-type'] === type).map((x) => String(x.headers['bolag-event-id']));
  const bodies = (type: string) => receiver.received.filter((x) => x.headers['bolag-event-type'] === type).map((x) => JSON.parse(x.raw.toString()));

  async function waitExport(r: Replica, id: string, timeoutMs = 30_000) {
    return waitFor(
      async () => {
        const e = (await get(r, `/exports/${id}`)).body.data;
        return e.status === 'completed' || e.status === 'failed' ? e : null;
      },
      { timeoutMs, intervalMs: 100, what: `export ${id}` },
    );
  }

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'bolag-mp-pg-'));
    ({ url, schema } = freshSchemaUrl());
    // A password in the URL (the test server's trust auth ignores it) that must never be printed.
    const withPassword = new URL(url);
    withPassword.password = PASSWORD;
    url = withPassword.toString();
    env = { BOLAG_HOME: join(dir, 'home'), BOLAG_EXPORT_SLOWDOWN_MS: '25' };
    flags = ['--database-url', url, '--seed-count', '3000', '--allow-insecure-webhooks', '--rate-limit', '0', '--export-part-rows', '1000'];
    receiver = await startReceiver();
    sql = new pg.Client({ connectionString: DATABASE_URL });
    await sql.connect();
    // Both at once on an empty database: one migrates and creates the register and the local
    // account (its key printed once), the other waits for it and finds them.
    [a, b] = await Promise.all([startReplica(flags, env), startReplica(flags, env)]);
    await waitFor(() => a.key() ?? b.key(), { timeoutMs: 20_000, what: 'the local account key' });
    await sleep(1000);
    const keys = [a.key(), b.key()].filter(Boolean);
    expect(keys).toHaveLength(1);
    key = keys[0]!;
    expect(key).toMatch(/^bk_/);
    expect((await sql0(`SELECT count(*)::int AS n FROM "${schema}".companies`)).rows[0].n).toBe(3000);
    const hook = await call(a.url, key, 'POST', '/webhooks', { url: `${receiver.url}/hook`, events: ['company.updated', 'export.completed'] });
    expect(hook.status).toBe(201);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a, b, ...extra].filter(Boolean).map((r) => r.stop()));
    await sql?.end();
    await receiver?.close();
    if (schema) await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('never shows the database password, and both serve the same searches', async () => {
    for (const r of [a, b]) {
      expect(r.stderr()).toContain(':***@'); // the listening line names the database, masked
      expect(r.stderr()).not.toContain(PASSWORD);
    }
    for (const q of ['/companies?q=bygg&limit=20&include_total=true', '/companies?county=01&sort=-revenue&limit=50', '/companies?near=59.33,18.06&radius_km=50&sort=distance']) {
      const [fromA, fromB] = await Promise.all([get(a, q), get(b, q)]);
      expect(fromA.status).toBe(200);
      expect(fromB.body.data).toEqual(fromA.body.data);
      expect(fromB.body.pagination).toEqual(fromA.body.pagination);
    }
  });

  it('takes a cursor from one and continues on the other', async () => {
    const first = await get(a, '/companies?status=all&sort=name&limit=25');
    const cursor = encodeURIComponent(first.body.pagination.next_cursor);
    const onB = await get(b, `/companies?status=all&sort=name&limit=25&cursor=${cursor}`);
    const onA = await get(a, `/companies?status=all&sort=name&limit=25&cursor=${cursor}`);
    expect(onB.status).toBe(200);
    expect(onB.body.data).toEqual(onA.body.data);
    expect(onB.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('creates an export on one, watches and downloads it (whole and by range) on the other', async () => {
    const created = await call(a.url, key, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } });
    expect(created.status).toBe(202);
    const e = await waitExport(b, created.body.data.id);
    expect(e.status).toBe('completed');
    expect(e.row_count).toBe(e.estimated_rows);
    const file = e.files[0];
    expect(file.url.startsWith(b.url)).toBe(true);
    const whole = Buffer.from(await (await fetch(file.url)).arrayBuffer());
    expect(createHash('sha256').update(whole).digest('hex')).toBe(file.sha256);
    const ranged = await fetch(file.url.replace(b.url, a.url), { headers: { range: 'bytes=10-99' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(10, 100))).toBe(true);
  }, 60_000);

  it('runs exports created on both once each, and delivers each export.completed once', async () => {
    const ids: string[] = [];
    const counties = ['01', '03', '04', '06'];
    for (const [i, r] of [a, b, a, b].entries()) {
      const created = await call(r.url, key, 'POST', '/exports', { format: 'csv', filters: { county: counties[i] } });
      expect(created.status).toBe(202);
      ids.push(created.body.data.id);
    }
    for (const id of ids) expect((await waitExport(a, id)).status).toBe('completed');
    await waitFor(() => ids.every((id) => bodies('export.completed').some((x) => x.data.export_id === id)), { timeoutMs: 30_000, what: 'export.completed events' });
    await sleep(1500);
    for (const id of ids) {
      expect(bodies('export.completed').filter((x) => x.data.export_id === id)).toHaveLength(1);
      const job = await sql.query(`SELECT state, attempts FROM "${schema}".jobs WHERE kind = 'export.run' AND payload->>'export_id' = $1`, [id]);
      expect(job.rows).toEqual([{ state: 'done', attempts: 0 }]); // claimed once, run once
    }
    const events = eventIds('export.completed');
    expect(new Set(events).size).toBe(events.length);
  }, 120_000);

  it('creates one export when one Idempotency-Key races across both', async () => {
    const body = { format: 'csv', filters: { county: '05' } };
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${(i % 2 ? b : a).url}/exports`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'race-across-replicas' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    const accepted = replies.filter((r) => r.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(replies.every((r) => r.status === 202 || (r.status === 409 && r.body.error.code === 'idempotency_conflict'))).toBe(true);
    expect(new Set(accepted.map((r) => r.body.data.id)).size).toBe(1);
    expect((await call(b.url, key, 'POST', '/exports', body)).status).toBe(202); // without the key: a new one
    const made = await sql.query(`SELECT count(*)::int AS n FROM "${schema}".exports WHERE filters::text = $1`, [JSON.stringify({ county: '05', exclude_advertising_blocked: true })]);
    expect(made.rows[0].n).toBe(2); // the raced one, and the one just made without a key
  });

  it('delivers each of 200 company changes from one db import once', async () => {
    const companies: any[] = [];
    for (let cursor: string | undefined; companies.length < 200; ) {
      const page = await get(a, `/companies?status=all&sort=name&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      companies.push(...page.body.data);
      cursor = page.body.pagination.next_cursor;
    }
    const file = join(dir, 'changes.jsonl');
    writeFileSync(file, companies.slice(0, 200).map((c) => JSON.stringify({ ...c, name: `${c.name} Omdöpt` })).join('\n') + '\n');
    const imported = await bolagRun(['db', 'import', file, '--database-url', url], env);
    expect(imported.exitCode, String(imported.stderr)).toBe(0);
    expect(`${imported.stdout}${imported.stderr}`).not.toContain(PASSWORD);
    await waitFor(() => new Set(eventIds('company.updated')).size >= 200, { timeoutMs: 60_000, what: '200 company.updated deliveries' });
    await sleep(2000);
    const ids = eventIds('company.updated');
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(new Set(ids).size).toBe(200);
  }, 120_000);

  it('holds one rate limit across both: 20 a minute lets 20 through', async () => {
    const limited = ['--database-url', url, '--rate-limit', '20', '--allow-insecure-webhooks'];
    const c = await startReplica(limited, env);
    extra.push(c);
    const d = await startReplica(limited, env);
    extra.push(d);
    try {
      await limitAcross(c, d);
    } finally {
      // Stopped here, not at the end of the file: left running, they took jobs of the tests after
      // (the killed export's lease was held by one of them, not by a or b, once in a CI run).
      await Promise.all(extra.splice(0).map((r) => r.stop()));
    }
  }, 120_000);

  async function limitAcross(c: Replica, d: Replica): Promise<void> {
    const made = await bolagRun(['admin', 'keys', 'create', '--scopes', 'companies:read', '--account', 'limited', '--database-url', url], env);
    const limitedKey = String(made.stdout).trim();
    expect(limitedKey).toMatch(/^bk_/);
    // All 40 requests within one window (windows follow the clock): wait for a fresh one if this one ends soon.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 15_000) await sleep(left + 50);
    let passed = 0;
    for (let i = 0; i < 40; i++) {
      const r = await get(i % 2 ? d : c, '/companies?limit=1', limitedKey);
      if (r.status === 200) passed++;
      else expect(r.status).toBe(429);
    }
    expect(passed).toBe(20);
  }

  it('finishes, on the other, an export whose process was killed mid-run, every row once', async () => {
    // a and b alone take jobs: the victim is the one of them holding the export.
    expect((await sql.query(`SELECT count(*)::int AS n FROM "${schema}".incarnations`)).rows[0].n).toBe(2);
    const created = await call(a.url, key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all', exclude_advertising_blocked: false } });
    const id = created.body.data.id;
    const holder = await waitFor(
      async () => {
        const e = (await get(b, `/exports/${id}`)).body.data;
        if (e.status !== 'running' || !(e.row_count > 0)) return null;
        // locked_by: the incarnation (one run of a server process) holding the lease.
        const r = await sql.query(
          `SELECT i.pid FROM "${schema}".jobs j JOIN "${schema}".incarnations i ON i.id = j.locked_by WHERE j.kind = 'export.run' AND j.payload->>'export_id' = $1`,
          [id],
        );
        return r.rows[0]?.pid as number | undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50, what: 'the export running' },
    );
    const victim = [a, b].find((r) => r.child.pid === holder)!;
    const survivor = victim === a ? b : a;
    expect(victim).toBeDefined();
    await victim.stop('SIGKILL');
    // The survivor takes the export over once the dead process's lease lapses (30 s).
    const e = await waitExport(survivor, id, 90_000);
    expect(e.status).toBe('completed');
    expect(e.row_count).toBe(3000);
    const ids: string[] = [];
    for (const f of e.files) {
      const text = Buffer.from(await (await fetch(f.url)).arrayBuffer()).toString('utf8');
      ids.push(...text.split('\n').filter(Boolean).map((line) => JSON.parse(line).id));
    }
    expect(ids).toHaveLength(3000);
    expect(new Set(ids).size).toBe(3000);
    await waitFor(() => bodies('export.completed').some((x) => x.data.export_id === id), { timeoutMs: 20_000, what: 'its export.completed' });
    await sleep(1000);
    expect(bodies('export.completed').filter((x) => x.data.export_id === id)).toHaveLength(1);
  }, 180_000);
});
