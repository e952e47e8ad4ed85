// Transport behaviour of the HTTP client, against a small throwaway HTTP server that answers
// with real-shaped responses (429 with Retry-After, 503, dropped connections, error bodies).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/cli/http-client.js';
import { ApiRequestError, AuthError, InvalidRequestError, NetworkError, NotFoundError } from '../../src/cli/errors/index.js';
import { parseRetryAfter } from '../../src/cli/http/retry.js';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

let server: Server | undefined;
let clients: HttpClient[] = [];

async function serve(handler: Handler): Promise<{ base: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  server = createServer((req, res) => {
    seen.push(req);
    handler(req, res, seen.length);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}/api/public/v1`, seen };
}

function client(base: string, extra: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}): HttpClient {
  const c = new HttpClient({ baseUrl: base, apiKey: 'bk_test', userAgent: 'bolag/9.9.9', retryBaseMs: 10, retryCapMs: 50, ...extra });
  clients.push(c);
  return c;
}

const ok = (res: ServerResponse, body: unknown = { data: [], meta: { request_id: 'req_ok' } }) => {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_ok' });
  res.end(JSON.stringify(body));
};
const fail = (res: ServerResponse, status: number, code: string, headers: Record<string, string> = {}, id = `req_${status}`) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id, ...headers });
  res.end(JSON.stringify({ error: { code, message: `It failed with ${code}.`, param: code === 'invalid_parameter' ? 'limit' : undefined }, meta: { request_id: id } }));
};

afterEach(async () => {
  for (const c of clients) await c.close();
  clients = [];
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('HttpClient', () => {
  it('sends the key, the User-Agent and the query; parses the body', async () => {
    const { base, seen } = await serve((_req, res) => ok(res, { data: [1], meta: { request_id: 'req_ok' } }));
    const res = await client(base).get<{ data: number[] }>('/companies', { query: { q: 'kaffe', f_skatt: true, county: ['01', '12'], limit: undefined } });
    expect(res.data.data).toEqual([1]);
    expect(res.requestId).toBe('req_ok');
    expect(seen[0].url).toBe('/api/public/v1/companies?q=kaffe&f_skatt=true&county=01%2C12');
    expect(seen[0].headers['user-agent']).toBe('bolag/9.9.9');
    expect(seen[0].headers.authorization).toBe('Bearer bk_test');
  });

  it('waits for Retry-After on 429 and then succeeds', async () => {
    const { base, seen } = await serve((_req, res, n) => (n === 1 ? fail(res, 429, 'rate_limited', { 'retry-after': '1' }) : ok(res)));
    const started = Date.now();
    await client(base).get('/companies');
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries 503 with backoff', async () => {
    const { base, seen } = await serve((_req, res, n) => (n < 3 ? fail(res, 503, 'service_unavailable') : ok(res)));
    await client(base).get('/companies');
    expect(seen).toHaveLength(3);
  });

  it('gives up after its retries with the last error and its request id', async () => {
    const { base, seen } = await serve((_req, res, n) => fail(res, 503, 'service_unavailable', {}, `req_${n}`));
    const error = await client(base, { retries: 2 }).get('/companies').catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable', requestId: 'req_3' });
  });

  it('does not wait for a Retry-After beyond its limit', async () => {
    const { base, seen } = await serve((_req, res) => fail(res, 429, 'rate_limited', { 'retry-after': '3600' }));
    const error = await client(base).get('/companies').catch((e: unknown) => e);
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ status: 429, retryAfter: 3600 });
  });

  it('does not resend a POST on 503 unless it carries an Idempotency-Key', async () => {
    const plain = await serve((_req, res) => fail(res, 503, 'service_unavailable'));
    await expect(client(plain.base).post('/exports', { format: 'csv' })).rejects.toMatchObject({ status: 503 });
    expect(plain.seen).toHaveLength(1);
    await new Promise<void>((r) => server!.close(() => r()));
    const keyed = await serve((_req, res, n) => (n === 1 ? fail(res, 503, 'service_unavailable') : ok(res)));
    await client(keyed.base).post('/exports', { format: 'csv' }, { headers: { 'Idempotency-Key': 'k1' } });
    expect(keyed.seen).toHaveLength(2);
    expect(keyed.seen[1].headers['content-type']).toBe('application/json');
  });

  it('retries a GET whose connection was dropped', async () => {
    const { base, seen } = await serve((req, res, n) => (n === 1 ? req.socket.destroy() : ok(res)));
    await client(base).get('/companies');
    expect(seen).toHaveLength(2);
  });

  it('reports a refused connection as a NetworkError after its retries', async () => {
    const error = await client('http://127.0.0.1:1/api/public/v1').get('/companies').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('times out a server that never answers', async () => {
    const { base } = await serve(() => undefined);
    const error = await client(base, { timeoutMs: 100, networkRetries: 0 }).get('/companies').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('turns error statuses into typed errors with the request id', async () => {
    const { base } = await serve((req, res) => {
      const status = Number(new URL(req.url!, 'http://x').searchParams.get('s'));
      const code = { 400: 'invalid_parameter', 401: 'unauthorized', 403: 'insufficient_scope', 404: 'not_found', 500: 'internal_error' }[status]!;
      fail(res, status, code);
    });
    const c = client(base);
    const get = (s: number) => c.get('/x', { query: { s } }).catch((e: unknown) => e);
    expect(await get(400)).toBeInstanceOf(InvalidRequestError);
    expect(await get(400)).toMatchObject({ param: 'limit', requestId: 'req_400', message: 'It failed with invalid_parameter.' });
    expect(await get(401)).toBeInstanceOf(AuthError);
    expect(await get(403)).toBeInstanceOf(AuthError);
    expect(await get(404)).toBeInstanceOf(NotFoundError);
    expect(await get(500)).toMatchObject({ status: 500, requestId: 'req_500' });
  });

  it('takes the request id from the header when the body is not JSON', async () => {
    const { base } = await serve((_req, res) => {
      res.writeHead(502, { 'request-id': 'req_proxy' });
      res.end('<html>bad gateway</html>');
    });
    const error = await client(base, { retries: 0 }).get('/companies').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, requestId: 'req_proxy', code: 'http_502' });
  });

  it('sends the key only to the service origin', async () => {
    const { base, seen } = await serve((_req, res) => ok(res));
    const c = client(base);
    await c.stream('GET', base.replace('127.0.0.1', 'localhost') + '/download').then((r) => r.body.dump());
    await c.stream('GET', base + '/download').then((r) => r.body.dump());
    expect(seen[0].headers.authorization).toBeUndefined();
    expect(seen[1].headers.authorization).toBe('Bearer bk_test');
  });

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
