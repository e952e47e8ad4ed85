// What the CLI shows on a terminal is never obeyed by it: escape sequences, C1 controls and bidi
// overrides in a company name, an error message or a webhook body are shown in caret notation
// or as <U+…>, while JSON, JSONL and CSV keep the text exactly.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalText } from '../../src/cli/output/terminal-text.js';
import { prettyLine } from '../../src/cli/commands/listen/print.js';
import { ImportErrorLog } from '../../src/cli/commands/db/import-errors.js';
import { execa } from 'execa';
import { BIN, BUILT, bolag, cleanEnv, serverEnv, startCliServer, type CliServer } from './helpers.js';
import { jsonForTerminal } from '../../src/cli/output/terminal-text.js';

/** Runs the binary on a pseudo-terminal (util-linux `script`), so that stdout is a TTY. */
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));
function onTerminal(args: string[], env: Record<string, string>) {
  const quoted = ['node', BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return execa(SCRIPT!, ['-qec', quoted, '/dev/null'], { reject: false, extendEnv: false, env: { ...env, SHELL: '/bin/sh' }, timeout: 60_000 });
}

const ESC = '\u001b';
// What a terminal would obey: ESC, BEL, CSI as one C1 code point, a right-to-left override.
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('shows control characters in caret notation and reordering marks by code point', () => {
    expect(terminalText(`a${ESC}]0;owned\u0007b`)).toBe('a^[]0;owned^Gb');
    expect(terminalText('x\u009b2Jy\u202egnp.exe')).toBe('x<U+009B>2Jy<U+202E>gnp.exe');
    expect(terminalText('tab\there\r\nnext\u007f')).toBe('tab^Ihere^M^Jnext^?');
    expect(terminalText('line\nbreak', { lines: true })).toBe('line\nbreak');
    // Swedish text, and what else a register holds, as it is.
    expect(terminalText('Åkeri & Söner AB — "Ö" 100 %')).toBe('Åkeri & Söner AB — "Ö" 100 %');
  });

  it('escapes in JSON what a terminal would obey, and the JSON means the same', () => {
    const value = { name: `A\u009b2J \u202eB\u2060 C${ESC}[1m`, n: 1 };
    const shown = jsonForTerminal(JSON.stringify(value, null, 2));
    expect(shown).not.toMatch(OBEYED);
    expect(shown).toContain('\\u009b2J \\u202eB\\u2060 C\\u001b[1m');
    expect(JSON.parse(shown)).toEqual(value);
    expect(terminalText('x\u061cy\u2060z')).toBe('x<U+061C>y<U+2060>z');
    // CSV on a terminal keeps its line ends and its BOM.
    expect(terminalText('\ufeffa;b\r\n"c\nd";e\r\n', { lines: true })).toBe('\ufeffa;b\r\n"c\nd";e\r\n');
  });

  it('keeps a webhook body from steering the terminal in `bolag listen`', () => {
    const raw = Buffer.from(JSON.stringify({ type: 'company.created', data: { org_nr: '556000-0001', name: `Evil${ESC}[2J${ESC}]52;c;cm0gLXJm\u0007 AB` } }));
    const line = prettyLine({ raw, eventId: `evt_1${ESC}[1A`, eventType: `company.created${ESC}[31m`, receivedAt: new Date() } as never, [], false);
    expect(line).not.toMatch(OBEYED);
    expect(line).toContain('Evil^[[2J^[]52;c;cm0gLXJm^G AB');
    expect(line).toContain('evt_1^[[1A');
  });

  it("keeps an import's error summary from steering the terminal", async () => {
    const log = new ImportErrorLog(undefined);
    log.add(7, `name "${ESC}]0;owned${ESC}\\" is not valid`, 'the line');
    expect(log.summary().join('\n')).not.toMatch(OBEYED);
    expect(log.summary()[1]).toBe('  line 7: name "^[]0;owned^[\\" is not valid');
    await log.close();
  });
});

describe.runIf(BUILT)('bolag listen', () => {
  it('names a rejected delivery by the id it claims without obeying it', async () => {
    const proc = bolag(['listen', '--port', '0', '--secret', 'whsec_dGVzdHRlc3R0ZXN0dGVzdA'], { env: cleanEnv(), buffer: false });
    let err = '';
    proc.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    try {
      let listening: string | undefined;
      for (let i = 0; i < 300 && !listening; i++) {
        await new Promise((r) => setTimeout(r, 50));
        listening = /Ready: listening on (\S+)/.exec(err)?.[1];
      }
      expect(listening, err).toBeDefined();
      const res = await fetch(listening!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `evt_1${ESC}]0;owned\u0007${ESC}[2J`, type: 'x' }) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      for (let i = 0; i < 100 && !err.includes('rejected'); i++) await new Promise((r) => setTimeout(r, 50));
      const line = err.split('\n').find((l) => l.startsWith('rejected'));
      expect(line).toContain('evt_1^[]0;owned^G^[[2J');
      expect(line).not.toMatch(OBEYED);
    } finally {
      proc.kill('SIGINT');
      await proc.catch(() => undefined);
    }
  }, 30_000);
});

describe.runIf(BUILT)('the CLI against our own register', () => {
  let s: CliServer;
  let work: string;
  let orgNr: string;
  const name = 'Omvänd \u202egnp.exe\u202c \u009b2J AB';

  beforeAll(async () => {
    s = await startCliServer({ seedCount: 200 });
    work = mkdtempSync(join(tmpdir(), 'bolag-terminal-'));
    // C1 and bidi characters are not control characters to the importer: a file can bring them.
    const res = await fetch(`${s.url}/companies?limit=1`, { headers: { authorization: `Bearer ${s.key}` } });
    const [company] = ((await res.json()) as { data: Record<string, unknown>[] }).data;
    orgNr = String(company.org_nr);
    const file = join(work, 'one.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...company, name })}\n`);
    const imported = await bolag(['db', 'import', file, '--db', join(s.dir, 'register.db')], { env: cleanEnv() });
    expect(imported.exitCode, String(imported.stderr)).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows the name in a table and down the page, and keeps it exact in JSON', async () => {
    const table = await bolag(['search', 'Omvänd', '--format', 'table'], { env: serverEnv(s, { COLUMNS: '200' }) });
    expect(table.exitCode, String(table.stderr)).toBe(0);
    expect(String(table.stdout)).toContain('Omvänd <U+202E>gnp.exe<U+202C> <U+009B>2J AB');
    expect(String(table.stdout)).not.toMatch(OBEYED);

    const company = await bolag(['company', orgNr, '--format', 'table'], { env: serverEnv(s, { COLUMNS: '200' }) });
    expect(company.exitCode, String(company.stderr)).toBe(0);
    expect(String(company.stdout)).toContain('<U+202E>gnp.exe<U+202C>');
    expect(String(company.stdout)).not.toMatch(OBEYED);

    const jsonl = await bolag(['search', 'Omvänd', '--format', 'jsonl'], { env: serverEnv(s) });
    expect(JSON.parse(String(jsonl.stdout).trim()).name).toBe(name);
  }, 60_000);
});

describe.runIf(BUILT)('the CLI against a service that is not ours', () => {
  // Stands for a compromised or hostile service at --base-url: whatever it sends, the terminal
  // only shows.
  let hostile: Server;
  let url: string;
  const PART = Buffer.from('id;name\r\n1;x\r\n');
  beforeAll(async () => {
    hostile = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/api/public/v1/companies?')) {
        const company = { id: 'cmp_1', org_nr: `556000-0001${ESC}[8m`, name: `Evil${ESC}]0;owned${ESC}\\ AB`, legal_form: 'aktiebolag', address: { city: `Ort${ESC}[2J` } };
        res.end(JSON.stringify({ data: [company], pagination: { limit: 20, has_more: false }, meta: { request_id: 'req_1' } }));
        return;
      }
      if (req.url === '/api/public/v1/exports/exp_1') {
        res.end(JSON.stringify({ data: { id: `../escaped${ESC}]0;owned\u0007`, status: 'completed', format: 'csv', files: [{ name: '..', url: `${url}/files/1`, rows: 1, bytes: PART.length, sha256: createHash('sha256').update(PART).digest('hex') }] }, meta: { request_id: 'req_3' } }));
        return;
      }
      if (req.url === '/api/public/v1/files/1') {
        res.setHeader('content-type', 'text/csv');
        res.end(PART);
        return;
      }
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { code: 'invalid_parameter', message: `bad${ESC}]52;c;cm0gLXJm${ESC}\\ value` }, meta: { request_id: `req_2${ESC}[1A` } }));
    });
    await new Promise<void>((r) => hostile.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(hostile.address() as { port: number }).port}/api/public/v1`;
  });
  afterAll(() => new Promise<void>((r) => hostile?.close(() => r())));

  it('shows its table cells without obeying them', async () => {
    const r = await bolag(['search', 'x', '--format', 'table'], { env: cleanEnv({ BOLAG_BASE_URL: url, BOLAG_API_KEY: 'bk_test', COLUMNS: '200' }) });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(String(r.stdout)).toContain('Evil^[]0;owned^[\\ AB');
    expect(String(r.stdout)).toContain('Ort^[[2J');
    expect(String(r.stdout)).not.toMatch(OBEYED);
  });

  it('writes an export part inside --out whatever the export id and file name it gives', async () => {
    const work = mkdtempSync(join(tmpdir(), 'bolag-hostile-export-'));
    try {
      const out = join(work, 'inner', 'out');
      const r = await bolag(['export', 'download', 'exp_1', '--out', out], { env: cleanEnv({ BOLAG_BASE_URL: url, BOLAG_API_KEY: 'bk_test' }) });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      expect(readdirSync(out)).toEqual(['export-part-001']);
      expect(readdirSync(join(work, 'inner')).sort()).toEqual(['out']);
      expect(readdirSync(work)).toEqual(['inner']);
      expect(String(r.stdout).trim()).toBe(join(out, 'export-part-001'));
      expect(String(r.stderr)).not.toMatch(OBEYED);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it.skipIf(!SCRIPT)('shows JSON, JSONL and CSV on a terminal without obeying them', async () => {
    const env = cleanEnv({ BOLAG_BASE_URL: url, BOLAG_API_KEY: 'bk_test', COLUMNS: '200' });
    for (const format of ['json', 'jsonl', 'csv']) {
      const r = await onTerminal(['search', 'x', '--format', format], env);
      expect(r.exitCode, `${format}: ${r.stdout}`).toBe(0);
      // The terminal's own line discipline turns each LF into CRLF (CSV's CRLF into CRCRLF).
      const shown = String(r.stdout).replace(/\r+(\n|$)/g, '\n');
      expect(shown, format).not.toMatch(OBEYED);
      expect(shown, format).toContain(format === 'csv' ? 'Evil^[]0;owned^[\\ AB' : 'Evil\\u001b]0;owned\\u001b\\\\ AB');
    }
  });

  it('shows its error message and request id without obeying them', async () => {
    const r = await bolag(['company', 'cmp_1'], { env: cleanEnv({ BOLAG_BASE_URL: url, BOLAG_API_KEY: 'bk_test' }) });
    expect(r.exitCode).toBe(2);
    const err = String(r.stderr);
    expect(err).toContain('bad^[]52;c;cm0gLXJm^[\\ value');
    expect(err).toContain('req_2^[[1A');
    expect(err.trimEnd()).not.toMatch(OBEYED);
    expect(err.trimEnd().split('\n')).toHaveLength(1);
  });
});
