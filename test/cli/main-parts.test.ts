// The pieces of main: argv rewrites, the exit-code table, one-line error reports, and the
// builders run with buffered streams as a terminal and as a pipe.
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { rewriteServeAlias, targetCommand } from '../../src/cli/argv.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { errorFromResponse } from '../../src/cli/http/error-from-response.js';
import { errorLine } from '../../src/cli/report-error.js';
import {
  ApiRequestError,
  AuthError,
  CancelError,
  ExportFailedError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  PipeClosedError,
  UsageError,
} from '../../src/cli/errors/index.js';
import { createFactory } from '../../src/cli/factory.js';
import { testIO } from '../../src/cli/io.js';
import { buildSearchCommand } from '../../src/cli/commands/search.js';
import type { SearchOptions } from '../../src/cli/commands/search/options.js';
import { buildCompanyCommand } from '../../src/cli/commands/company.js';
import type { CompanyOptions } from '../../src/cli/commands/company/options.js';
import { COMMANDS } from '../../src/cli/commands/index.js';

const details = (status: number, code: string) => ({ method: 'GET', path: '/companies', status, code, requestId: 'req_1' });

describe('argv', () => {
  it('rewrites bolag --serve to bolag serve', () => {
    expect(rewriteServeAlias(['--serve', '--port', '8080'])).toEqual(['serve', '--port', '8080']);
    expect(rewriteServeAlias(['--db', 'x.db', '--serve'])).toEqual(['serve', '--db', 'x.db']);
    expect(rewriteServeAlias(['search', '--serve'])).toEqual(['search', '--serve']);
  });

  it('finds the command a run is for, past global options and help', () => {
    expect(targetCommand(['--profile', 'search', 'company', 'x'])).toBe('company');
    expect(targetCommand(['--local', 'search', 'kaffe'])).toBe('search');
    expect(targetCommand(['help', 'search'])).toBe('search');
    expect(targetCommand(['--help'])).toBeUndefined();
  });
});

describe('exit codes', () => {
  it('maps each error class in one table (contract §3)', () => {
    expect(exitCodeFor(new UsageError('x'))).toBe(EXIT.usage);
    expect(exitCodeFor(new InvalidRequestError('x', details(400, 'invalid_parameter')))).toBe(2);
    expect(exitCodeFor(new AuthError('x', details(401, 'unauthorized')))).toBe(3);
    expect(exitCodeFor(new AuthError('x', details(403, 'insufficient_scope')))).toBe(3);
    expect(exitCodeFor(new NotFoundError('x', details(404, 'not_found')))).toBe(4);
    expect(exitCodeFor(new ExportFailedError('x'))).toBe(5);
    expect(exitCodeFor(new CancelError())).toBe(130);
    expect(exitCodeFor(new PipeClosedError())).toBe(0);
    expect(exitCodeFor(new ApiRequestError('x', details(500, 'internal_error')))).toBe(1);
    // What a server answers for a request too large to read is the typed input's fault: 2, as a 400.
    for (const status of [400, 413, 414, 431]) {
      expect(exitCodeFor(errorFromResponse({ method: 'GET', path: '/companies', status, bodyText: '' })), String(status)).toBe(2);
    }
    expect(exitCodeFor(errorFromResponse({ method: 'GET', path: '/companies', status: 502, bodyText: '' }))).toBe(1);
    // A 403's hint names its cause: a quota of the plan is no missing scope (found 2026-11-29).
    const forbidden = (code: string) => errorFromResponse({ method: 'POST', path: '/webhooks', status: 403, bodyText: JSON.stringify({ error: { code, message: 'm' } }) }).hint;
    expect(forbidden('plan_required')).toBe("the account's plan does not allow it");
    expect(forbidden('insufficient_scope')).toMatch(/^the key lacks a scope/);
    expect(forbidden('something_else')).toBe('the key lacks a scope or the plan lacks the feature');
    expect(exitCodeFor(new NetworkError('x', { method: 'GET', url: 'u' }))).toBe(1);
    expect(exitCodeFor(new Error('x'))).toBe(1);
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', 'x'))).toBe(2);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', 'x'))).toBe(0);
  });

  it('reports an error as one line with the request id', () => {
    expect(errorLine(new AuthError('The key is unknown.', details(401, 'unauthorized'), { hint: 'run bolag login' }))).toBe(
      'error: The key is unknown. (HTTP 401 unauthorized, request id req_1) — run bolag login',
    );
    expect(errorLine(new UsageError('Invalid --limit: too big.'))).toBe('error: Invalid --limit: too big.');
    expect(errorLine(new CancelError('Interrupted; resume with: --cursor abc'))).toBe('Interrupted; resume with: --cursor abc');
    expect(errorLine(new Error('two\nlines'))).toBe('error: two lines');
    expect(errorLine(new PipeClosedError())).toBeUndefined();
  });
});

describe('builders with buffered streams', () => {
  const factoryFor = (tty: boolean) => createFactory({ io: testIO({ tty }), globals: () => ({}), env: {} });

  it('search: table on a terminal, jsonl in a pipe; flags become API parameters', async () => {
    for (const [tty, format] of [[true, 'table'], [false, 'jsonl']] as const) {
      let seen: SearchOptions | undefined;
      const cmd = buildSearchCommand(factoryFor(tty), async (o) => {
        seen = o;
      }).exitOverride();
      await cmd.parseAsync(['kaffe', '--county', 'Skåne län', '--no-f-skatt', '--max', '10'], { from: 'user' });
      expect(seen).toMatchObject({ format, max: 10, all: false, params: { q: 'kaffe', county: 'Skåne län', f_skatt: false } });
      expect(seen!.parsed).toMatchObject({ county: ['12'] });
    }
  });

  it('search: an invalid flag throws a UsageError before the run function', async () => {
    let ran = false;
    const cmd = buildSearchCommand(factoryFor(false), async () => {
      ran = true;
    }).exitOverride();
    await expect(cmd.parseAsync(['--limit', '500'], { from: 'user' })).rejects.toBeInstanceOf(UsageError);
    await expect(cmd.parseAsync(['--count', '--all'], { from: 'user' })).rejects.toBeInstanceOf(UsageError);
    expect(ran).toBe(false);
  });

  it('company: a vertical table on a terminal, JSON otherwise', async () => {
    for (const [tty, format] of [[true, 'table'], [false, 'json']] as const) {
      let seen: CompanyOptions | undefined;
      await buildCompanyCommand(factoryFor(tty), async (o) => {
        seen = o;
      })
        .exitOverride()
        .parseAsync(['556677-8899'], { from: 'user' });
      expect(seen).toMatchObject({ id: '556677-8899', format });
    }
  });

  it('every registry entry loads a builder whose command has the entry name', async () => {
    const f = factoryFor(false);
    for (const entry of COMMANDS) {
      const build = await entry.load();
      expect(build(f).name()).toBe(entry.name);
    }
  });
});
