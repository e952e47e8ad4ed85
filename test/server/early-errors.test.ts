// Answers given before a route runs (router, URL limits, HTTP parser) are in the contract's
// error shape with a Request-Id, like every other answer. Raw bytes over a real loopback
// socket: fetch() would refuse to send most of these requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/start.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let dir: string;
let server: RunningServer;
let port: number;
let auth: string;

/** Writes the bytes, optionally half-closes, and parses every HTTP/1.1 response that comes back. */
function exchange(bytes: string, opts: { halfClose?: boolean } = {}): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (b) => chunks.push(b));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseResponses(Buffer.concat(chunks))));
    socket.write(bytes, () => {
      if (opts.halfClose) socket.end();
    });
    setTimeout(() => socket.destroy(new Error(`no end of the answer: ${Buffer.concat(chunks).toString()}`)), 10_000).unref();
  });
}

function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`not an HTTP response: ${JSON.stringify(rest.toString())}`);
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
    const length = Number(headers['content-length']);
    expect(Number.isInteger(length), `Content-Length in ${statusLine}`).toBe(true);
    const body = rest.subarray(end + 4, end + 4 + length).toString('utf8');
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
    rest = rest.subarray(end + 4 + length);
  }
  return out;
}

function expectContractError(r: RawResponse, status: number, code: string): { message: string; param?: string } {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.headers['request-id']).toMatch(/^req_[\w-]{12}$/);
  const body = JSON.parse(r.body) as { error: { code: string; message: string; param?: string }; meta: { request_id: string } };
  expect(Object.keys(body).sort()).toEqual(['error', 'meta']);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(body.meta).toEqual({ request_id: r.headers['request-id'] });
  return body.error;
}

const get = (target: string, extraHeaders = '') => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}${extraHeaders}Connection: close\r\n\r\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-early-errors-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dbPath: join(dir, 'r.db'), seedCount: 200, workers: false });
  port = Number(new URL(server.listenUrl).port);
  auth = `Authorization: Bearer ${server.apiKey}\r\n`;
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('answers before a route runs, in the contract shape', () => {
  it('a 3,000-character id in a path: 404 not_found (no id is that long), not a bare 414', async () => {
    const [r] = await exchange(get(`/api/public/v1/webhooks/${'a'.repeat(3000)}`));
    expectContractError(r, 404, 'not_found');
    const [c] = await exchange(get(`/api/public/v1/companies/${'5'.repeat(3000)}`));
    expectContractError(c, 404, 'not_found');
  });

  it('a URL over 8 KiB: 414 uri_too_long, from the app (under Node\'s 16 KiB) and from the HTTP parser (over it)', async () => {
    const [app] = await exchange(get(`/api/public/v1/companies?q=${'a'.repeat(10_000)}`));
    expect(expectContractError(app, 414, 'uri_too_long').message).toContain('8192 bytes');
    const [parser] = await exchange(get(`/api/public/v1/companies?q=${'a'.repeat(20_000)}`));
    expectContractError(parser, 414, 'uri_too_long');
    expect(parser.headers.connection).toBe('close');
  });

  it('malformed percent-encoding: 400 invalid_request in the path, invalid_parameter (with param) in the query', async () => {
    const [path] = await exchange(get('/api/public/v1/webhooks/%zz'));
    expectContractError(path, 400, 'invalid_request');
    const [query] = await exchange(get('/api/public/v1/companies?q=%E0%A4%A'));
    expect(expectContractError(query, 400, 'invalid_parameter').param).toBe('q');
    const [utf8] = await exchange(get('/api/public/v1/companies?county=%FF'));
    expect(expectContractError(utf8, 400, 'invalid_parameter').param).toBe('county');
  });

  it('a wrong method on a known path: 405 method_not_allowed with Allow', async () => {
    const [del] = await exchange(`DELETE /api/public/v1/companies HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expectContractError(del, 405, 'method_not_allowed');
    expect(del.headers.allow).toBe('GET, HEAD');
    const [test] = await exchange(get('/api/public/v1/webhooks/wh_123/test'));
    expectContractError(test, 405, 'method_not_allowed');
    expect(test.headers.allow).toBe('POST');
    const [put] = await exchange(`PUT /api/public/v1/exports HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(expectContractError(put, 405, 'method_not_allowed').message).toContain('PUT');
    expect(put.headers.allow).toBe('GET, HEAD, POST');
  });

  it('a known path with a trailing slash: 404 not_found that names the path without it (was a 405 refusing the method it listed)', async () => {
    const [r] = await exchange(get('/api/public/v1/companies/c_0000001/'));
    expect(expectContractError(r, 404, 'not_found').message).toBe(
      'No route GET /api/public/v1/companies/c_0000001/; leave out the trailing slash: /api/public/v1/companies/c_0000001.',
    );
    expect(r.headers.allow).toBeUndefined();
    const [post] = await exchange(`POST /api/public/v1/webhooks/wh_123/test/ HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    expectContractError(post, 404, 'not_found');
    // Another method than the path's own is still 405.
    const [del] = await exchange(`DELETE /api/public/v1/companies/ HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    expectContractError(del, 405, 'method_not_allowed');
  });

  it('a letter outside ASCII in the URL, unencoded (curl "…?q=göteborg"): 400 invalid_request saying how to encode it', async () => {
    const [r] = await exchange(get('/api/public/v1/companies?q=göteborg'));
    expect(expectContractError(r, 400, 'invalid_request').message).toContain('%C3%B6');
  });

  it('an HTTP/1.1 request without Host: 400 invalid_request in the contract shape (Node answered a bare 400)', async () => {
    const [r] = await exchange(`GET /api/public/v1/companies HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`);
    expect(expectContractError(r, 400, 'invalid_request').message).toContain('Host');
    // HTTP/1.0 has no Host requirement.
    const [old] = await exchange(`GET /api/public/v1/companies?limit=1 HTTP/1.0\r\n${auth}\r\n`);
    expect(old.status, old.body).toBe(200);
  });

  it('an unknown path is still 404 not_found', async () => {
    const [r] = await exchange(get('/api/public/v1/nothing-here'));
    expectContractError(r, 404, 'not_found');
  });

  it('a header section over 16 KiB: 431 headers_too_large', async () => {
    const [r] = await exchange(get('/api/public/v1/companies', `X-Padding: ${'p'.repeat(20_000)}\r\n`));
    expectContractError(r, 431, 'headers_too_large');
  });

  it('a body shorter than its Content-Length (the client stops sending): 400 invalid_request', async () => {
    const body = '{"format":"csv"}';
    const [r] = await exchange(
      `POST /api/public/v1/exports HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length + 20}\r\n\r\n${body}`,
      { halfClose: true },
    );
    expect(expectContractError(r, 400, 'invalid_request').message).toContain('Content-Length');
  });

  it('a body longer than its Content-Length: every answer on the connection is in shape', async () => {
    const responses = await exchange(
      `POST /api/public/v1/exports HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{"format":"csv"}`,
    );
    expect(responses.length).toBeGreaterThanOrEqual(1);
    expectContractError(responses[0], 400, 'invalid_body'); // the 5 bytes it announced are not JSON
    for (const r of responses.slice(1)) expectContractError(r, 400, 'invalid_request');
  });

  it('a body longer than its Content-Length on a request that asked to close: one answer, to that request', async () => {
    // RFC 9112, 9.6: nothing after a request with Connection: close is read as a request.
    const responses = await exchange(
      `GET /api/public/v1/%c3%28 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${auth}Content-Length: 0\r\n\r\nx`,
    );
    expect(responses).toHaveLength(1);
    expectContractError(responses[0], 400, 'invalid_request');
  });

  it('Content-Length together with Transfer-Encoding, or bytes that are not HTTP: 400 invalid_request', async () => {
    const [both] = await exchange(
      `POST /api/public/v1/exports HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expectContractError(both, 400, 'invalid_request');
    const [garbage] = await exchange('HELLO THERE\r\n\r\n');
    expectContractError(garbage, 400, 'invalid_request');
  });
});
