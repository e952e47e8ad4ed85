// The binary against a service that misbehaves on the wire (a listener that never answers, a
// proxy that cuts a body short): Ctrl-C while the first request is in flight is exit 130 with one
// line, never a stack trace; a body that is not JSON names the request and its request id; a
// later page that fails says which cursor resumes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bolag, BUILT, serverEnv } from './helpers.js';

let server: Server;
let url = '';
const arrived: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.push(req.url ?? '');
    if (req.url?.startsWith('/cut/')) {
      // A 200 whose body a proxy cut short.
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_cutshort' });
      res.end('{"data":[{"id":"c_1","name":"A');
    }
    else if (req.url?.startsWith('/flaky/')) {
      // The first page answers; the next fails on the server's side.
      const next = req.url.includes('cursor=');
      res.writeHead(next ? 500 : 200, { 'content-type': 'application/json', 'request-id': next ? 'req_second' : 'req_first' });
      res.end(
        JSON.stringify(
          next
            ? { error: { code: 'internal_error', message: 'Something went wrong on our side.' }, meta: { request_id: 'req_second' } }
            : { data: [{ id: 'c_1', name: 'Ett AB' }], pagination: { limit: 1, has_more: true, next_cursor: 'page2' }, meta: { request_id: 'req_first' } },
        ),
      );
    }
    // Otherwise: never answer.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe.skipIf(!BUILT)('the CLI against a service that misbehaves on the wire', () => {
  it.each([
    [['search', 'bygg', '--limit', '1']],
    [['search', 'bygg', '--all', '--format', 'json']],
    [['company', 'c_0000001']],
    [['export', 'create', '--county', '01', '--format', 'csv', '--wait']],
  ])('Ctrl-C while the first request is in flight: exit 130, one line, no stack (%j)', async (args) => {
    const before = arrived.length;
    const child = bolag(args, { env: serverEnv({ url, key: 'bk_test' }) });
    while (arrived.length === before) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    const lines = String(r.stderr).trim().split('\n');
    expect(lines, String(r.stderr)).toEqual(['Interrupted.']);
  }, 30_000);

  it.each([['jsonl'], ['csv']])('a later page that fails keeps what was written and says which cursor resumes (--format %s)', async (format) => {
    const r = await bolag(['search', '--all', '--limit', '1', '--format', format], { env: serverEnv({ url: url.replace('/api/', '/flaky/api/'), key: 'bk_test' }) });
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toContain('Ett AB');
    const lines = String(r.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/HTTP 500 internal_error, request id req_second\).* resume with: --cursor page2$/);
  }, 30_000);

  it.each([['jsonl'], ['json'], ['csv']])('a body cut short names the request and its request id (--format %s)', async (format) => {
    const r = await bolag(['search', '--limit', '1', '--format', format, '--q', 'x'], { env: serverEnv({ url: url.replace('/api/', '/cut/api/'), key: 'bk_test' }) });
    expect(r.exitCode).toBe(1);
    const lines = String(r.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: GET \/companies answered with a body that is not JSON\..*request id req_cutshort/);
  }, 30_000);
});
