// Secrets stay secret: API keys are stored only as hashes; keys, webhook secrets, the signing
// key and database passwords never appear in the logs of `bolag --verbose serve` nor in error
// bodies; CR/LF in requests never makes a header or a log line of their own; every secret
// comparison is constant-time.
import { execa, type ResultPromise } from 'execa';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ensureBuilt, ROOT } from '../exports/built.js';
import { cleanEnv } from '../cli/helpers.js';
import { waitForExport } from '../exports/helpers.js';
import { startReceiver, type Receiver } from '../webhooks/helpers.js';

let dir: string;
let key: string;
let child: ResultPromise | undefined;
let output = '';
/** The server's stdout alone. */
let stdout = '';
let url = '';
let receiver: Receiver;
/** Every secret the run handles; none may be logged. */
const secrets: Record<string, string> = {};
const responses: { status: number; headers: Headers; text: string }[] = [];

async function req(path: string, init: RequestInit & { key?: string | null } = {}) {
  const { key: k = key, ...rest } = init;
  const res = await fetch(`${url}${path}`, { ...rest, headers: { ...(k ? { authorization: `Bearer ${k}` } : {}), ...(rest.body ? { 'content-type': 'application/json' } : {}), ...(rest.headers as Record<string, string>) } });
  const r = { status: res.status, headers: res.headers, text: await res.text() };
  responses.push(r);
  return r;
}

/** A raw request, for what fetch refuses to send: CR/LF in the request target. */
function rawGet(port: number, target: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (c) => (text += c.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => resolve(text));
  });
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'bolag-secrets-'));
  const s = await startServer({ port: 0, dbPath: join(dir, 'register.db'), seedCount: 500, workers: false });
  key = s.apiKey!;
  await s.close();
  receiver = await startReceiver();
  child = execa('node', [join(ROOT, 'bin/bolag.js'), '--verbose', 'serve', '--port', '0', '--db', join(dir, 'register.db'), '--allow-insecure-webhooks'], {
    reject: false,
    buffer: false,
    all: true,
    extendEnv: false,
    env: cleanEnv({ BOLAG_HOME: join(dir, 'home') }),
  });
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  url = await new Promise<string>((resolve, reject) => {
    child!.all!.on('data', (c: Buffer) => {
      output += c.toString();
      const m = /listening on (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    child!.on('exit', () => reject(new Error(output)));
  });

  secrets.apiKey = key;
  secrets.wrongKey = `bk_${'Q'.repeat(43)}`;
  // Traffic that handles every kind of secret.
  await req('/companies?limit=2&q=bygg');
  await req('/companies?limit=2', { key: secrets.wrongKey });
  await req(`/companies?api_key=${key}`);
  // Percent-encoded (found by a security review: logged as it came).
  secrets.apiKeyEncoded = key.slice(3);
  await req(`/companies?q=bk%5F${key.slice(3)}`);
  await req(`/companies?q=%62k_${key.slice(3)}&limit=1`);
  const created = JSON.parse((await req('/exports', { method: 'POST', body: JSON.stringify({ format: 'csv', filters: { county: '01' } }) })).text).data;
  const done = await waitForExport({ url }, key, created.id, 30_000);
  secrets.linkSignature = new URL(done.download_url).searchParams.get('signature')!;
  await req(new URL(done.download_url).pathname.replace('/api/public/v1', '') + new URL(done.download_url).search, { key: null });
  const hook = JSON.parse((await req('/webhooks', { method: 'POST', body: JSON.stringify({ url: `${receiver.url}/in`, events: ['company.updated'] }) })).text).data;
  secrets.webhookSecret = hook.secret;
  secrets.rotatedSecret = JSON.parse((await req(`/webhooks/${hook.id}/rotate-secret`, { method: 'POST' })).text).data.secret;
  await req(`/webhooks/${hook.id}/test`, { method: 'POST' });
  await req('/webhooks', { method: 'POST', body: JSON.stringify({ url: 'https://user:hunter2pass@example.com/x', events: ['company.updated'] }) });
  const port = Number(new URL(url).port);
  await rawGet(port, '/api/public/v1/companies?q=a%0d%0aX-Injected:%20yes%0d%0a');
  await rawGet(port, '/api/public/v1/exports/x%0d%0aX-Injected:%20yes/download?expires=1&signature=a');
  await rawGet(port, '/api/public/v1/x%0AFAKE-LOG-LINE');
  for (let i = 0; i < 100 && receiver.received.length < 1; i++) await new Promise((r) => setTimeout(r, 50));
  const store = openSqliteStore(join(dir, 'register.db'));
  secrets.signingKey = store.db.prepare("SELECT value FROM settings WHERE name = 'signing_key'").pluck().get() as string;
  await store.close();
  child.kill('SIGTERM');
  await child;
  child = undefined;
}, 180_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets', () => {
  it('the verbose server log shows the traffic, and no key, webhook secret, link signature or signing key', () => {
    expect(output).toContain(`"url":"/api/public/v1/companies?limit=2&q=bygg"`);
    expect(output).toContain(`"url":"/api/public/v1/companies?api_key=[redacted]"`);
    expect(output).toMatch(/download\?expires=\d+&signature=\[redacted\]/);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value, name).toBeTruthy();
      expect(output.includes(value) ? output.split("\n").filter((l) => l.includes(value)).join("\n") : "", `${name} appears in the log`).toBe("");
    }
    expect(output).not.toContain('hunter2pass');
  });

  it('the request log is on stderr, as --verbose says: stdout holds none of it', () => {
    expect(output).toContain('"msg":"incoming request"');
    expect(stdout).not.toContain('"msg":');
  });

  it('API keys are stored as their SHA-256 only: the key appears nowhere in the database file', () => {
    const files = readdirSync(dir).filter((f) => f.startsWith('register.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, f))));
    expect(bytes.includes(Buffer.from(key))).toBe(false);
    expect(bytes.includes(Buffer.from(key.slice(12)))).toBe(false); // not even the part after the shown prefix
    expect(bytes.includes(Buffer.from(createHash('sha256').update(key).digest('hex')))).toBe(true);
  });

  it('error bodies echo no secret, no stack and no path', () => {
    const errors = responses.filter((r) => r.status >= 400);
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const r of errors) {
      for (const [name, value] of Object.entries(secrets)) expect(r.text.includes(value), `${name} in ${r.text}`).toBe(false);
      expect(r.text).not.toContain('hunter2pass');
      expect(r.text).not.toMatch(/\n\s+at |node_modules|\/src\/|\/tmp\//);
    }
  });

  it('CR/LF in a request makes no header and no log line of its own', () => {
    for (const r of responses) for (const [name] of r.headers) expect(name).not.toMatch(/injected/i);
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    expect(lines.some((l) => l.startsWith('X-Injected') || l.startsWith('FAKE-LOG-LINE'))).toBe(false);
    // Every log line is one JSON record or one of serve's own notices.
    for (const line of lines) {
      if (line.startsWith('{')) expect(() => JSON.parse(line)).not.toThrow();
      else expect(line, line).toMatch(/^(bolag serve:|WARNING|  |Created the local account|bk_|$)/);
    }
  });

  it('a database password given to serve is not printed when the database cannot be reached', async () => {
    const r = await execa('node', [join(ROOT, 'bin/bolag.js'), '--verbose', 'serve', '--port', '0', '--database-url', 'postgres://bolag:s3cretPassw0rd@127.0.0.1:1/bolag'], {
      reject: false,
      all: true,
      extendEnv: false,
      env: cleanEnv({ BOLAG_HOME: join(dir, 'home2') }),
      timeout: 30_000,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.all).not.toContain('s3cretPassw0rd');
  });
});

describe('constant-time comparisons', () => {
  // Where a secret is compared, the comparison is timingSafeEqual, never === on the secret.
  const where: Record<string, RegExp> = {
    'src/app/signer.ts': /timingSafeEqual\(expected, given\)/, // cursors and download links
    'src/webhooks/signature.ts': /timingSafeEqual\(candidate, expected\)/, // webhook signatures
    'src/server/auth.ts': /timingSafeEqual\(stored, Buffer\.from\(hash\)\)/, // API keys (looked up by hash)
  };
  it.each(Object.entries(where))('%s compares with timingSafeEqual', (file, pattern) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).toMatch(pattern);
    expect(text).not.toMatch(/(signature|digest|hash|secret)\s*[!=]==\s*(expected|given|candidate|stored)/i);
  });
});
