// --database-url (and DATABASE_URL) on the commands that open the register, and the password
// of a database URL never shown.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../exports/built.js';
import { DATABASE_URL, dropSchema, freshSchemaUrl } from '../helpers/pg.js';
import { bolag, cleanEnv } from './helpers.js';

beforeAll(async () => {
  await ensureBuilt();
});

describe('--database-url', () => {
  it('refuses a URL that is not PostgreSQL, or beside --db, without showing the password', async () => {
    const r = await bolag(['db', 'stats', '--database-url', 'mysql://root:hunter2secret@db.example/x']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('mysql://root:***@db.example/x');
    expect(String(r.stderr)).not.toContain('hunter2secret');
    const fromEnv = await bolag(['admin', 'keys', 'list'], { env: cleanEnv({ DATABASE_URL: 'mysql://root:hunter2secret@db.example/x' }) });
    expect(fromEnv.exitCode).toBe(2);
    expect(String(fromEnv.stderr)).toContain('Invalid DATABASE_URL');
    expect(String(fromEnv.stderr)).not.toContain('hunter2secret');
    const both = await bolag(['db', 'stats', '--db', '/tmp/x.db', '--database-url', 'postgres://u@h/d']);
    expect(both.exitCode).toBe(2);
    expect(String(both.stderr)).toMatch(/either --db or --database-url/);
    // A schema name that cannot be one: a usage error before any connection (found by a review, 2026-11-29: exit 1).
    const schema = await bolag(['db', 'stats', '--database-url', 'postgres://u@127.0.0.1:1/d?schema=Bad-Name;drop']);
    expect([schema.exitCode, String(schema.stderr).trim()]).toEqual([2, 'error: Invalid schema name in the database URL: "Bad-Name;drop" (lower-case letters, digits and _); e.g. ?schema=bolag_staging.']);
  });

  it('refuses a URL in --db (it took it for a file: a SQLite register under ./postgres:/…), password masked, nothing made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bolag-db-url-'));
    const jsonl = join(dir, 'changes.jsonl');
    writeFileSync(jsonl, '');
    try {
      for (const args of [
        ['db', 'import', '--db', 'postgres://bolag:hunter2secret@127.0.0.1:5432/x', jsonl],
        ['db', 'stats', '--db', 'postgres://bolag:hunter2secret@127.0.0.1:5432/x'],
        ['serve', '--db', 'postgresql://bolag:hunter2secret@db.example/x', '--port', '0'],
        ['--db', 'postgres://bolag:hunter2secret@127.0.0.1:5432/x', 'search', 'bygg'],
      ]) {
        const r = await bolag(args, { cwd: dir, env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }) });
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(String(r.stderr).trim(), args.join(' ')).toMatch(/^error: --db takes a SQLite file; postgres(ql)?:\/\/bolag:\*\*\*@\S+ is a URL\. — give a PostgreSQL database with --database-url$/);
      }
      expect(readdirSync(dir).filter((f) => f.startsWith('postgres'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a URL that does not parse (exit 2), and names the database it could not reach (exit 1), password masked', async () => {
    const bad = await bolag(['db', 'stats', '--database-url', 'postgres://[::1']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr).trim()).toBe('error: Invalid --database-url: expected postgres://user@host:port/database, got postgres://***.');
    // A port nothing listens on (1 is never a PostgreSQL).
    for (const args of [['db', 'stats'], ['admin', 'keys', 'list']]) {
      const r = await bolag([...args, '--database-url', 'postgres://bolag:hunter2secret@127.0.0.1:1/register']);
      expect(r.exitCode).toBe(1);
      expect(String(r.stderr).trim()).toBe('error: Cannot open the database postgres://bolag:***@127.0.0.1:1/register: connect ECONNREFUSED 127.0.0.1:1.');
    }
  });

  it.skipIf(!DATABASE_URL)('opens PostgreSQL from the flag or DATABASE_URL for db and admin commands, password masked', async () => {
    const { url, schema } = freshSchemaUrl();
    const withPassword = new URL(url);
    withPassword.password = 'hunter2secret'; // trust auth on the test server ignores it
    try {
      const made = await bolag(['admin', 'keys', 'create', '--scopes', 'companies:read', '--account', 'acme', '--database-url', withPassword.toString()]);
      expect(made.exitCode, String(made.stderr)).toBe(0);
      expect(String(made.stdout)).toMatch(/^bk_/);
      const listed = await bolag(['admin', 'keys', 'list'], { env: cleanEnv({ DATABASE_URL: withPassword.toString() }) });
      expect(listed.exitCode).toBe(0);
      expect(String(listed.stdout)).toContain('"scopes":["companies:read"]');
      const stats = await bolag(['db', 'stats', '--database-url', withPassword.toString()]);
      expect(stats.exitCode).toBe(0);
      expect(JSON.parse(String(stats.stdout)).database).toMatch(/^PostgreSQL postgres:\/\/[^:]+:\*\*\*@/);
      // A global option: before the command name too (its value is not taken for the command).
      const before = await bolag(['--database-url', withPassword.toString(), 'db', 'stats']);
      expect(before.exitCode, String(before.stderr)).toBe(0);
      expect(JSON.parse(String(before.stdout)).database).toMatch(/^PostgreSQL postgres:\/\//);
      for (const r of [made, listed, stats, before]) expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2secret');
    } finally {
      await dropSchema(schema);
    }
  });

  it.skipIf(!DATABASE_URL)("refuses a schema of another program's tables untouched (exit 2)", async () => {
    const { url, schema } = freshSchemaUrl();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".orders (id integer)`);
      const r = await bolag(['db', 'stats', '--database-url', url]);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr).trim()).toBe(
        `error: Schema ${schema} holds tables of something else (orders), not a bolag register; nothing in it was changed. Give the register a schema of its own: ?schema=bolag in --database-url.`,
      );
      const tables = await admin.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
      expect(tables.rows.map((t) => t.table_name)).toEqual(['orders']);
    } finally {
      await admin.end();
      await dropSchema(schema);
    }
  });

  it.skipIf(!DATABASE_URL)('takes a schema whose only tables an extension made (PostGIS puts spatial_ref_sys in public)', async () => {
    const { url, schema } = freshSchemaUrl();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    // hstore stands in for PostGIS (not installed here): a table added to it is the extension's.
    const installed = (await admin.query("SELECT 1 FROM pg_extension WHERE extname = 'hstore'")).rowCount !== 0;
    try {
      if (installed) return; // another program's hstore: not ours to add a table to
      await admin.query(`CREATE SCHEMA "${schema}"; CREATE EXTENSION hstore WITH SCHEMA "${schema}"; CREATE TABLE "${schema}".spatial_ref_sys (srid integer); ALTER EXTENSION hstore ADD TABLE "${schema}".spatial_ref_sys`);
      const r = await bolag(['db', 'stats', '--database-url', url]);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(JSON.parse(String(r.stdout)).companies).toBe(0);
    } finally {
      if (!installed) await admin.query('DROP EXTENSION IF EXISTS hstore CASCADE');
      await admin.end();
      await dropSchema(schema);
    }
  });
});
