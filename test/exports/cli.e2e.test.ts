// The CLI's create → wait → download path with the real binary (node bin/bolag.js) against a
// real server: files checked against a search with the same filters, every part against its
// sha256, resumed partial files, refused corrupt ones, a failed export (exit 5).
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/csv.js';
import { ensureBuilt, ROOT } from './built.js';
import { api, http, searchAll, startTestServer, waitForExport, type TestServer } from './helpers.js';

let t: TestServer;
let proxy: Proxy;
let work: string;
let port: number;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** A pass-through proxy in front of the server, to see the Range headers and to corrupt a body on demand. */
interface Proxy {
  url: string;
  target: URL;
  ranges: string[];
  corrupt: RegExp | null;
  /** Answer downloads with Connection: close and close the connection after the body, as many proxies do. */
  closeAfter: boolean;
  /** Drop every download's connection at once, as a server gone away would. */
  drop: boolean;
  server: Server;
}

async function startProxy(target: URL): Promise<Proxy> {
  const p: Proxy = { url: '', target, ranges: [], corrupt: null, closeAfter: false, drop: false, server: undefined as unknown as Server };
  p.server = createServer((req, res) => {
    if (req.url?.includes('/files/')) p.ranges.push(String(req.headers.range ?? ''));
    if (p.drop && req.url?.includes('/files/')) return void req.socket.destroy();
    const upstream = request({ host: p.target.hostname, port: p.target.port, path: req.url, method: req.method, headers: req.headers, agent: false }, (up) => {
      const close = p.closeAfter && (req.url ?? '').includes('/files/');
      res.writeHead(up.statusCode ?? 502, close ? { ...up.headers, connection: 'close' } : up.headers);
      const corrupt = p.corrupt !== null && p.corrupt.test(req.url ?? '');
      let first = true;
      up.on('data', (chunk: Buffer) => {
        if (corrupt && first) {
          chunk = Buffer.from(chunk);
          chunk[chunk.length - 1] ^= 0xff;
        }
        first = false;
        res.write(chunk);
      });
      up.on('end', () => res.end());
    });
    req.pipe(upstream);
  });
  // Node's 5 s keep-alive could close an idle connection just as the tests' pool (4 s, and its
  // timers run late on a busy machine) reused it: a POST then failed with ECONNRESET (CI, 2026-11-28).
  // Longer than the pool's, as Fastify's own 72 s is, so the client always lets go first.
  p.server.keepAliveTimeout = 72_000;
  await new Promise<void>((r) => p.server.listen(0, '127.0.0.1', r));
  const address = p.server.address() as { port: number };
  p.url = `http://127.0.0.1:${address.port}/api/public/v1`;
  return p;
}

function bolag(args: string[], extra: Record<string, string> = {}) {
  return execa('node', [join(ROOT, 'bin/bolag.js'), ...args], {
    reject: false,
    extendEnv: false,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      BOLAG_HOME: join(work, 'home'),
      BOLAG_BASE_URL: t.url,
      BOLAG_API_KEY: t.key,
      LANG: 'C.UTF-8',
      ...extra,
    },
    cwd: work,
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'bolag-export-cli-'));
  // Everything goes through the proxy: the server's public URL (its links) is the proxy's.
  port = await freePort();
  proxy = await startProxy(new URL(`http://127.0.0.1:${port}`));
  t = await startTestServer({ port, exportPartRows: 500, seedCount: 6000, publicUrl: proxy.url });
}, 240_000);

afterAll(async () => {
  await t?.cleanup();
  proxy?.server.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('bolag export create --wait', () => {
  it('gets the analyst every growing joinery in Västra Götaland with a website, as CSV, in one command', async () => {
    const out = join(work, 'joinery');
    const r = await bolag([
      'export', 'create',
      '--category', 'snickerier', '--county', 'Västra Götalands län', '--trend', 'växande', '--website-status', 'har_hemsida',
      '--format', 'csv', '--wait', '--out', out,
    ]);
    expect(r.stderr).toBe(''); // quiet when stderr is not a terminal
    expect(r.exitCode).toBe(0);
    const paths = r.stdout.split('\n').filter(Boolean);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(new RegExp(`^${out}/exp_[\\w-]+\\.csv$`));
    expect(readdirSync(out)).toEqual([paths[0].slice(out.length + 1)]); // no .part left behind
    const bytes = readFileSync(paths[0]);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(bytes.toString('utf8'));
    expect(rows[0].join(';')).toMatch(/^id;org_nr;name;legal_form;status;address\.street;/);
    const searched = await searchAll(t, t.key, {
      category: 'snickerier', county: '14', trend: 'växande', website_status: 'har_hemsida', exclude_advertising_blocked: 'true',
    });
    expect(searched.length).toBeGreaterThan(0);
    const websiteAt = rows[0].indexOf('website');
    expect(rows.slice(1).map((row) => row[0]).sort()).toEqual(searched.map((c) => c.id).sort());
    for (const row of rows.slice(1)) expect(row[websiteAt]).toMatch(/^https?:\/\//);
  }, 60_000);

  it('downloads every part of a multi-part export and checks each against its sha256', async () => {
    const out = join(work, 'all');
    const r = await bolag(['export', 'create', '--status', 'all', '--no-exclude-advertising-blocked', '--format', 'jsonl', '--wait', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const paths = r.stdout.split('\n').filter(Boolean);
    expect(paths).toHaveLength(12);
    const id = /(exp_[\w-]+)-part-001\.jsonl$/.exec(paths[0])![1];
    const e = (await api(t, t.key, 'GET', `/exports/${id}`)).body.data;
    expect(e.row_count).toBe(6000);
    paths.forEach((p, i) => {
      const bytes = readFileSync(p);
      expect(p.endsWith(e.files[i].name)).toBe(true);
      expect(sha256(bytes)).toBe(e.files[i].sha256);
      expect(bytes.toString('utf8').split('\n').filter(Boolean)).toHaveLength(e.files[i].rows);
    });
  }, 60_000);
});

/** `script`, to run the binary on a terminal (util-linux); the test below is skipped without it. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

describe.skipIf(!SCRIPT)('bolag export create --wait on a terminal', () => {
  it('that does not know its width (script, docker exec -t) shows no spinner, and the export arrives', async () => {
    // Exploratory run, 2026-11-28: ora at width 0 wrote tens of MB of cursor movements a second,
    // and against the local register the export never finished.
    const out = join(work, 'width-0');
    const quoted = ['node', join(ROOT, 'bin/bolag.js'), 'export', 'create', '--county', '01', '--format', 'csv', '--wait', '--out', out].map((a) => `'${a}'`).join(' ');
    const r = await execa(SCRIPT!, ['-qec', quoted, '/dev/null'], {
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', HOME: work, BOLAG_HOME: join(work, 'home'), BOLAG_BASE_URL: t.url, BOLAG_API_KEY: t.key, LANG: 'C.UTF-8' },
      cwd: work,
      timeout: 60_000,
    });
    expect(r.exitCode, r.stdout.slice(0, 500)).toBe(0);
    expect(r.stdout.length).toBeLessThan(20_000);
    expect(r.stdout).not.toContain('\u001b[1A');
    // Every part downloaded, named on the terminal.
    const named = [...r.stdout.matchAll(/exp_[\w-]+\.csv/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(0);
    expect(readdirSync(out).sort()).toEqual([...new Set(named)].sort());
  }, 90_000);
});

describe.skipIf(!SCRIPT)('bolag export create --wait on a terminal, told to be plain', () => {
  const onTerminal = (args: string[], extra: Record<string, string> = {}) => {
    // A terminal of known width: at width 0 there is no spinner at all (above).
    const quoted = `stty cols 100 rows 40; ${['node', join(ROOT, 'bin/bolag.js'), ...args].map((a) => `'${a}'`).join(' ')}`;
    return execa(SCRIPT!, ['-qec', quoted, '/dev/null'], {
      reject: false,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', HOME: work, BOLAG_HOME: join(work, 'home'), BOLAG_BASE_URL: t.url, BOLAG_API_KEY: t.key, LANG: 'C.UTF-8', ...extra },
      cwd: work,
      timeout: 60_000,
    });
  };

  it('NO_COLOR: the spinner and its ticks without colour', async () => {
    const r = await onTerminal(['export', 'create', '--county', '01', '--wait', '--out', join(work, 'no-color')], { NO_COLOR: '1', TERM: 'xterm-256color' });
    expect(r.exitCode, r.stdout.slice(0, 500)).toBe(0);
    expect(r.stdout).toContain('✔ Downloaded');
    expect(r.stdout).not.toMatch(/\u001b\[3\dm/);
    // Set but empty is not set (no-color.org): colour as usual.
    const empty = await onTerminal(['export', 'create', '--county', '01', '--wait', '--out', join(work, 'empty-no-color')], { NO_COLOR: '', TERM: 'xterm-256color' });
    expect(empty.exitCode, empty.stdout.slice(0, 500)).toBe(0);
    expect(empty.stdout).toMatch(/\u001b\[3\dm/);
  }, 60_000);

  it('--quiet: only the paths written, no spinner', async () => {
    const out = join(work, 'quiet');
    const r = await onTerminal(['--quiet', 'export', 'create', '--county', '01', '--wait', '--out', out]);
    expect(r.exitCode, r.stdout.slice(0, 500)).toBe(0);
    const lines = r.stdout.split(/\r?\n/).filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.startsWith(out), line).toBe(true);
  }, 60_000);
});

describe('bolag export create|get|wait|download', () => {
  it('creates without waiting, then gets, waits and downloads by id', async () => {
    const created = await bolag(['export', 'create', '--county', '14', '--fields', 'name,website', '--idempotency-key', 'cli-same']);
    expect(created.exitCode).toBe(0);
    const record = JSON.parse(created.stdout);
    expect(record).toMatchObject({ status: 'queued', format: 'csv', fields: ['name', 'website'] });
    const again = await bolag(['export', 'create', '--county', '14', '--fields', 'name,website', '--idempotency-key', 'cli-same']);
    expect(JSON.parse(again.stdout).id).toBe(record.id);

    const waited = await bolag(['export', 'wait', record.id]);
    expect(waited.exitCode).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ id: record.id, status: 'completed' });
    const got = await bolag(['export', 'get', record.id]);
    expect(JSON.parse(got.stdout).row_count).toBe(JSON.parse(waited.stdout).row_count);

    const out = join(work, 'by-id');
    const downloaded = await bolag(['export', 'download', record.id, '--out', out]);
    expect(downloaded.exitCode).toBe(0);
    const [path] = downloaded.stdout.split('\n').filter(Boolean);
    expect(parseCsv(readFileSync(path, 'utf8'))[0]).toEqual(['id', 'name', 'website']);
    // Run twice: the intact file is kept as it is.
    expect((await bolag(['export', 'download', record.id, '--out', out])).stdout).toBe(downloaded.stdout);
  }, 60_000);

  it('resumes a partial file with a Range request and replaces a corrupt one', async () => {
    const created = (await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { status: 'all' } })).body.data;
    const e = await waitForExport(t, t.key, created.id);
    expect(e.files.length).toBeGreaterThan(2);
    const out = join(work, 'resume');
    const parts = await Promise.all(e.files.map(async (f: any) => Buffer.from(await (await http(f.url)).arrayBuffer())));
    rmSync(out, { recursive: true, force: true });
    await execa('mkdir', ['-p', out]);
    writeFileSync(join(out, `${e.files[0].name}.part`), parts[0].subarray(0, 1000)); // an interrupted download
    writeFileSync(join(out, e.files[1].name), Buffer.from('not the export')); // a corrupt file under the final name
    proxy.ranges = [];
    const r = await bolag(['export', 'download', e.id, '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(proxy.ranges[0]).toBe('bytes=1000-');
    e.files.forEach((f: any, i: number) => expect(readFileSync(join(out, f.name)).equals(parts[i])).toBe(true));
    expect(readdirSync(out).filter((n) => n.endsWith('.part'))).toEqual([]);
  }, 60_000);

  it('survives a proxy that closes the connection after each download', async () => {
    const created = (await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { status: 'all' } })).body.data;
    const e = await waitForExport(t, t.key, created.id);
    proxy.closeAfter = true;
    try {
      const r = await bolag(['export', 'download', e.id, '--out', join(work, 'closing')]);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(e.files.length);
    } finally {
      proxy.closeAfter = false;
    }
  }, 60_000);

  it('never leaves a file that does not match its sha256 under the final name (exit 5)', async () => {
    const created = (await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { county: '01' } })).body.data;
    const e = await waitForExport(t, t.key, created.id);
    const out = join(work, 'corrupt');
    proxy.corrupt = new RegExp(`/exports/${e.id}/files/1`);
    try {
      const r = await bolag(['export', 'download', e.id, '--out', out]);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toMatch(/sha256/);
      expect(existsSync(join(out, e.files[0].name))).toBe(false);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      proxy.corrupt = null;
    }
  }, 60_000);

  it('takes the query as words, as bolag search does', async () => {
    const r = await bolag(['export', 'create', 'bygg', '--county', '01', '--idempotency-key', 'words-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).filters).toMatchObject({ q: 'bygg', county: '01' });
    expect((await bolag(['export', 'create', 'x', '--f-skatt', 'false'])).stderr).toMatch(/--f-skatt takes no value/);
    // Words and --q together: one would be lost, so neither is sent.
    const both = await bolag(['export', 'create', 'bygg', '--q', 'snickeri', '--county', '01']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toMatch(/^error: Give the query once, as words or as --q, not both \("bygg" and --q "snickeri"\)/);
    expect(both.stdout).toBe('');
  }, 60_000);

  it('rejects bad flags before sending anything (exit 2) and reports an unknown export (exit 4)', async () => {
    expect((await bolag(['export', 'create', '--county', 'Atlantis'])).exitCode).toBe(2);
    expect((await bolag(['export', 'create', '--revenue-min', '10', '--revenue-max', '5'])).exitCode).toBe(2);
    expect((await bolag(['export', 'create', '--out', 'x'])).exitCode).toBe(2);
    expect((await bolag(['export', 'create', '--format', 'xml'])).exitCode).toBe(2);
    // --out naming a file: refused before the export is created, so none is left on the server.
    const newest = async () => (await api(t, t.key, 'GET', '/exports?limit=1')).body.data[0]?.id as string | undefined;
    const before = await newest();
    writeFileSync(join(work, 'a-file'), 'x');
    const inTheWay = await bolag(['export', 'create', '--county', '01', '--wait', '--out', 'a-file']);
    expect(inTheWay.exitCode).toBe(2);
    expect(inTheWay.stderr.trim()).toMatch(/^error: --out a-file: a file is in the way, not a folder\.$/);
    expect(await newest()).toBe(before);
    // --out typed as a file name: refused, with what --out is, and no folder of that name made.
    const fileName = await bolag(['export', 'create', '--county', '01', '--wait', '--out', 'companies.csv']);
    expect(fileName.exitCode).toBe(2);
    expect(fileName.stderr.trim()).toMatch(/^error: --out companies\.csv: that is a file name, but --out is the folder the export's files go in .*$/);
    expect(existsSync(join(work, 'companies.csv'))).toBe(false);
    expect(await newest()).toBe(before);
    const missing = await bolag(['export', 'get', 'exp_nope']);
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toMatch(/req_/);
    // An unknown export to download: 404, and no folder made for it.
    const nothing = await bolag(['export', 'download', 'exp_nope', '--out', 'never-made']);
    expect(nothing.exitCode).toBe(4);
    expect(existsSync(join(work, 'never-made'))).toBe(false);
  }, 60_000);
});

describe('what a review found (2026-11-29)', () => {
  it('downloads an export of no rows as an empty file (it failed: no .part to check)', async () => {
    const out = join(work, 'none');
    const r = await bolag(['export', 'create', '--q', 'zzzzqqqxxxnothing', '--format', 'jsonl', '--wait', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const paths = r.stdout.split('\n').filter(Boolean);
    expect(paths).toHaveLength(1);
    expect(readFileSync(paths[0]).length).toBe(0);
    expect(readdirSync(out)).toEqual([paths[0].slice(out.length + 1)]);
  }, 60_000);

  it('says an export whose files were swept has expired (it exited 0 with nothing written)', async () => {
    const created = (await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { county: '25' } })).body.data;
    const e = await waitForExport(t, t.key, created.id);
    // As the sweep leaves it: the record, its files gone.
    await t.store().exports.update(e.id, { files: [], expires_at: new Date(Date.now() - 1000).toISOString() });
    const r = await bolag(['export', 'download', e.id, '--out', join(work, 'swept')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toMatch(new RegExp(`^error: Export ${e.id} expired at \\S+: its files are deleted 24 hours after it completes\\. — create the export again$`));
    expect(r.stdout).toBe('');
  }, 60_000);

  it('a download whose connection keeps breaking is no failed export: exit 1, after pauses to resume in (it was 5 at once)', async () => {
    const created = (await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { county: '03' } })).body.data;
    const e = await waitForExport(t, t.key, created.id);
    proxy.drop = true;
    try {
      const started = Date.now();
      const r = await bolag(['export', 'download', e.id, '--out', join(work, 'dropped')]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim()).toMatch(/^error: Downloading \S+ failed: .* — run the same command again: it resumes from \S+\.part$/);
      // Three pauses (1, 2 and 4 s) between the four tries: a server restarting gets its seconds.
      expect(Date.now() - started).toBeGreaterThanOrEqual(7_000);
    } finally {
      proxy.drop = false;
    }
  }, 60_000);

  it('create --wait whose download keeps breaking says to download the export it made, not to create again', async () => {
    proxy.drop = true;
    try {
      const r = await bolag(['export', 'create', '--county', '04', '--format', 'csv', '--wait', '--out', join(work, 'dropped-create')]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr.trim()).toMatch(/^error: Downloading \S+ failed: .* — export (exp_[\w-]+) was created and goes on on the server \(bolag export download \1 --out \S+\)$/);
      expect(r.stderr).not.toMatch(/run the same command again/);
    } finally {
      proxy.drop = false;
    }
  }, 60_000);

  it('create --wait with a key that may create but not read exports names the export it made (each retry made another, unseen)', async () => {
    const createOnly = await t.keyFor('create-only', ['exports:create']);
    const r = await bolag(['export', 'create', '--county', '01', '--wait', '--out', join(work, 'create-only')], { BOLAG_API_KEY: createOnly });
    expect(r.exitCode).toBe(3);
    expect(r.stderr.trim()).toMatch(/exports:read.* — .*export (exp_[\w-]+) was created and goes on on the server \(bolag export download \1 --out \S+\)$/);
  }, 60_000);
});

describe('a failed export', () => {
  it('ends bolag export create --wait with exit 5 and the reason', async () => {
    const repair = await t.breakExportStorage();
    try {
      const r = await bolag(['export', 'create', '--county', '01', '--wait', '--out', join(work, 'failed')]);
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toMatch(/failed: The export files could not be written/);
      expect(r.stdout).toBe('');
    } finally {
      await repair();
    }
  }, 60_000);
});

describe('Ctrl-C while bolag export create --wait waits', () => {
  it('names the export that goes on and how to pick it up (exit 130), with a saved profile too', async () => {
    // No worker runs the export: it stays queued while the CLI waits.
    await t.stop();
    await t.start({ workers: false });
    try {
      // A saved profile loads conf, whose exit hook re-raises the signal: that second SIGINT ended
      // the command at once, before it said which export goes on (exploratory run, 2026-11-28).
      const home = join(work, 'ctrl-c-home');
      const withProfile = (args: string[]) =>
        execa('node', [join(ROOT, 'bin/bolag.js'), ...args], {
          reject: false,
          extendEnv: false,
          env: { PATH: process.env.PATH ?? '', HOME: home, BOLAG_HOME: join(home, 'bolag'), LANG: 'C.UTF-8' },
          cwd: work,
        });
      const login = await withProfile(['login', '--base-url', t.url, '--api-key', t.key]);
      expect(login.exitCode, login.stderr).toBe(0);
      const child = withProfile(['export', 'create', '--county', '01', '--wait', '--out', join(work, 'ctrl-c')]);
      // Created and waiting (polled every 250 ms and more) by then.
      await new Promise((r) => setTimeout(r, 2_500));
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toMatch(/^Interrupted\. The export goes on on the server; to pick it up: bolag export download exp_[\w-]+ --out \S+ctrl-c$/m);
    } finally {
      await t.stop();
      await t.start();
    }
  }, 60_000);
});
