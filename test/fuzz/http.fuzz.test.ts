// HTTP fuzz test (issue 12, point 2): a few thousand random and hostile requests against a
// running server on loopback, over every route, with a valid key and without. Every answer must
// come within a bound, be a 2xx where the request was valid or a 4xx in the contract's error
// shape, never a 5xx; and a normal search must still be answered afterwards.
//
// Deterministic per seed: FUZZ_SEED=<n> replays a run; a failure names its seed.
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../src/core/errors.js';
import { call, startTestServer, waitFor, type TestServer } from '../webhooks/helpers.js';
import { rawRequest, type RawReply, type RawRequest } from './raw-http.js';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const RANDOM_REQUESTS = 2000;
const CONCURRENCY = 8;
const ANSWER_WITHIN_MS = 15_000;
const PREFIX = '/api/public/v1';

// Every name is unknown: no DNS leaves the machine, and webhook URLs on such names are accepted.
const nxdomain: net.LookupFunction = (host, options, cb) =>
  queueMicrotask(() => cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), options.all ? [] : '', 4));

let s: TestServer;
let port: number;
const ids = { company: '', exportId: '', webhook: '', download: '', file: '' };

beforeAll(async () => {
  s = await startTestServer({ seedCount: 300, webhookLookup: nxdomain, webhookRetryScheduleSeconds: [3600] });
  port = Number(new URL(s.url).port);
  ids.company = (await call(s.url, s.apiKey, 'GET', '/companies?limit=1')).body.data[0].id;
  const created = await call(s.url, s.apiKey, 'POST', '/exports', { format: 'csv', filters: { county: '01' } });
  ids.exportId = created.body.data.id;
  const done = await waitFor(async () => {
    const e = (await call(s.url, s.apiKey, 'GET', `/exports/${ids.exportId}`)).body.data;
    return e.status === 'completed' && e;
  });
  ids.download = new URL(done.download_url).pathname + new URL(done.download_url).search;
  ids.file = new URL(done.files[0].url).pathname + new URL(done.files[0].url).search;
  const hook = await call(s.url, s.apiKey, 'POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['company.updated'] });
  ids.webhook = hook.body.data.id;
});
afterAll(async () => s?.close());

// ---- what requests are made of --------------------------------------------------------------

const hostileText = fc.constantFrom(
  "'; DROP TABLE companies; --", '" OR 1=1 --', 'a" NEAR b', 'name:x*', '(((', '^', '*', 'AND', 'NOT', '"', '\\',
  '%', '_', '\u0000', '\u0000x\u0000', '\ud800', '\u202e\u0645', '🏢🚀', 'å'.repeat(300), 'x'.repeat(5000), '..', '../../etc/passwd',
  '\r\nX-Injected: 1', '<script>', '${7*7}', '{{7*7}}', '-1', '1e308', '0x10', 'NaN', 'null', 'true', '[]', '{}',
);
const anyText = fc.oneof(hostileText, fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }));
/** Percent-encodes UTF-8 bytes (a lone surrogate becomes U+FFFD, as any client would send it). */
const percent = (t: string) => [...Buffer.from(t, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
/** Percent-encoded the way a client would, or (sometimes) sent raw, broken encoding included. */
const urlPart = fc.oneof(
  { weight: 6, arbitrary: anyText.map(percent) },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%c3%28', '%00', '%ff%fe', '%2e%2e%2f', 'a%2Fb', '%%%%') },
);
const idPart = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('company', 'exportId', 'webhook').map((k) => ids[k as keyof typeof ids]) },
  { weight: 3, arbitrary: urlPart },
  { weight: 1, arbitrary: fc.constantFrom('c_0000001', 'exp_000000000000', 'wh_00000000', '0', '-1', '99999999999999999999') },
);
/** Each route with the methods it answers (the fuzz mostly uses those, sometimes any). */
const ROUTES: [methods: string[], path: (id: string, n: string) => string][] = [
  [['GET'], () => '/companies'],
  [['GET'], (id) => `/companies/${id}`],
  [['GET'], () => '/categories'],
  [['GET'], () => '/openapi.json'],
  [['GET', 'POST'], () => '/exports'],
  [['GET'], (id) => `/exports/${id}`],
  [['GET'], (id) => `/exports/${id}/download`],
  [['GET'], (id, n) => `/exports/${id}/files/${n}`],
  [['GET', 'POST'], () => '/webhooks'],
  [['GET', 'PATCH', 'DELETE'], (id) => `/webhooks/${id}`],
  [['POST'], (id) => `/webhooks/${id}/rotate-secret`],
  [['POST'], (id) => `/webhooks/${id}/test`],
  [['GET'], (id) => `/webhooks/${id}/deliveries`],
  [['GET'], (id) => `/${id}`],
];
const SEARCH_NAMES = ['q', 'county', 'municipality', 'city', 'postal_code', 'category', 'sni', 'status', 'legal_form', 'revenue_min', 'revenue_max', 'near', 'radius_km', 'sort', 'limit', 'cursor', 'fields', 'expand', 'include_total', 'registered_from', 'f_skatt', 'expires', 'signature'];
const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...SEARCH_NAMES), urlPart), urlPart), { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

const deep = (n: number, open: string, close: string) => Buffer.from(open.repeat(n) + close.repeat(n));
const jsonBody = fc.oneof(
  fc.constant({ format: 'csv', filters: { county: '01', q: 'bygg' } }),
  fc.constant({ format: 'jsonl', filters: { exclude_advertising_blocked: false }, fields: ['name'] }),
  fc.constant({ url: 'https://hooks.example.com/x', events: ['company.updated'], filters: { county: ['01'] } }),
  fc.record({ format: anyText, filters: fc.dictionary(fc.constantFrom(...SEARCH_NAMES), fc.oneof(anyText, fc.array(anyText, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }))) }, { requiredKeys: [] }),
  fc.record({ url: anyText, events: fc.array(anyText, { maxLength: 3 }), status: anyText, filters: fc.jsonValue({ maxDepth: 3 }) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')),
).map((v) => Buffer.from(JSON.stringify(v)));
const body = fc.oneof(
  { weight: 6, arbitrary: jsonBody },
  { weight: 1, arbitrary: fc.constantFrom(deep(10_000, '[', ']'), deep(50_000, '{"a":', '}'), Buffer.from('{"a":1e999,"b":-0,"c":"\\ud800"}'), Buffer.from('{"a":1,"a":2}')) },
  { weight: 1, arbitrary: fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), anyText.map((t) => Buffer.from(t)), fc.constant(Buffer.alloc(0)), fc.constant(Buffer.from('\u0000\u0000'))) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(1_100_000, 'a')) },
);
const contentType = fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/jsonx', '', '*/*');
const auth = fc.oneof(
  { weight: 6, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('', 'Bearer ', 'Bearer bk_nope', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(4000)}`, 'bearer VALID', 'Bearer VALID VALID') },
);
const extraHeaders = fc.array(
  fc.oneof(
    fc.tuple(fc.constant('Idempotency-Key'), fc.oneof(fc.string({ maxLength: 300 }), fc.constant('k'))),
    fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=999999-', 'bytes=5-1', 'bytes=0-1,3-4', 'items=1-2', 'bytes=')),
    fc.tuple(fc.constant('If-Range'), fc.string({ maxLength: 20 })),
    fc.tuple(fc.constant('Accept'), fc.constantFrom('text/csv', '*/*', 'application/xml')),
    fc.tuple(fc.constant('X-Forwarded-For'), fc.constantFrom('127.0.0.1', '::1, 10.0.0.1')),
  ),
  { maxLength: 2 },
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'POST', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND');

interface Case extends RawRequest {
  /** May end without an answer (judged on coming back in time): the request is cut short or oversized. */
  incomplete: boolean;
}

const request: fc.Arbitrary<Case> = fc
  .record({
    anyMethod: method,
    ownMethod: fc.nat(),
    useOwnMethod: fc.nat(3).map((n) => n > 0),
    routeIndex: fc.nat(ROUTES.length - 1),
    id: idPart,
    n: fc.oneof(fc.constantFrom('1', '2', '0', '-1', '1.5', '01'), urlPart),
    query,
    outsidePrefix: fc.boolean().map((b) => b && Math.random() < 0.05),
    auth,
    contentType,
    body: fc.option(body, { freq: 2 }),
    extraHeaders,
    lie: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'short', 'long', 'slow', 'halfclose'),
  })
  .map((r) => {
    const [methods, path] = ROUTES[r.routeIndex];
    const m = r.useOwnMethod ? methods[r.ownMethod % methods.length] : r.anyMethod;
    let target = path(r.id, r.n) + r.query;
    if (r.routeIndex === 6 && r.id === ids.exportId && r.query === '') target = ids.download;
    if (r.routeIndex === 7 && r.id === ids.exportId && r.query === '') target = ids.file;
    else if (!target.startsWith(PREFIX)) target = (r.outsidePrefix ? '' : PREFIX) + target;
    const headers: [string, string][] = [];
    if (r.auth === 'valid') headers.push(['Authorization', `Bearer ${s.apiKey}`]);
    else if (r.auth !== '') headers.push(['Authorization', r.auth.replaceAll('VALID', s.apiKey)]);
    const b = r.body ?? undefined;
    if (b !== undefined && r.contentType !== '') headers.push(['Content-Type', r.contentType]);
    let length = b?.length;
    if (b !== undefined && r.lie === 'short') length = Math.max(0, b.length - 1);
    if (b !== undefined && (r.lie === 'long' || r.lie === 'halfclose')) length = b.length + 10;
    if (length !== undefined) headers.push(['Content-Length', String(length)]);
    headers.push(...r.extraHeaders.map(([k, v]) => [k, v.replace(/[\r\n\0]/g, '')] as [string, string]));
    // A body over the 1 MB limit is refused (413) before it is read, and the server then closes
    // the connection: our unread upload makes that a reset, which may swallow the answer.
    const incomplete = b !== undefined && (r.lie === 'long' || r.lie === 'halfclose' || b.length > 1_048_576);
    return {
      method: m,
      target,
      headers,
      body: b,
      slowPieces: r.lie === 'slow' ? 5 : undefined,
      // A Content-Length that promises more than comes: close our side so the server sees the end.
      halfCloseAfter: incomplete ? b!.length : undefined,
      incomplete,
    };
  });

// ---- how an answer is judged -----------------------------------------------------------------

interface Tally {
  byStatus: Map<number | null, number>;
}

function judge(c: Case, reply: RawReply, tally: Tally): void {
  const what = `${c.method} ${c.target.slice(0, 160)} [seed ${SEED}]`;
  tally.byStatus.set(reply.status, (tally.byStatus.get(reply.status) ?? 0) + 1);
  if (reply.status === null) {
    // Only a request we cut short may end without an answer.
    expect(c.incomplete, `no answer to ${what} (head ${c.target.length + c.headers.reduce((a, [k, v]) => a + k.length + v.length + 4, 0)} bytes, headers ${JSON.stringify(c.headers.map(([k, v]) => [k, v.slice(0, 40)]))}, body ${c.body?.length})`).toBe(true);
    return;
  }
  expect(reply.status, `${what} → ${reply.status} ${reply.body.toString('utf8').slice(0, 300)}`).toBeLessThan(500);
  expect(reply.status, what).toBeGreaterThanOrEqual(200);
  expect(reply.status === 304 || reply.status < 300 || reply.status >= 400, what).toBe(true);
  const isJson = (reply.headers['content-type'] ?? '').startsWith('application/json');
  if (c.method === 'HEAD' || reply.status === 204 || reply.status === 304) return;
  // Every refusal is in the contract's shape, also those given before a route runs (malformed
  // request lines and headers, URLs that cannot be decoded, oversized heads, slow bodies).
  expect(reply.status >= 400 && !isJson, `${what} → ${reply.status} without a JSON body: ${reply.body.toString('utf8').slice(0, 200)}`).toBe(false);
  if (!isJson) {
    // A download: a file or a ZIP, only over a signed link.
    expect(c.target, what).toMatch(/\/exports\/[^/]+\/(download|files\/)/);
    return;
  }
  let parsed;
  try {
    parsed = JSON.parse(reply.body.toString('utf8'));
  } catch (e) {
    const sent = `headers ${JSON.stringify(c.headers.map(([k, v]) => [k, v.slice(0, 60)]))}, body ${c.body?.length}${c.incomplete ? ', cut short' : ''}`;
    throw new Error(`${what} (${sent}) → ${reply.status}, not one JSON document (${(e as Error).message}): ${reply.body.toString('utf8').slice(0, 400)}`);
  }
  // The OpenAPI document is the one success without meta (it is a document, not an answer).
  if (reply.status < 300 && c.target.startsWith(`${PREFIX}/openapi.json`)) return;
  expect(parsed.meta?.request_id, what).toBe(reply.headers['request-id']);
  if (reply.status >= 400) {
    const shape = ErrorBodySchema.safeParse(parsed);
    expect(shape.success, `${what} → ${reply.body.toString('utf8').slice(0, 300)}`).toBe(true);
    expect(parsed.error.message).not.toMatch(/\n\s+at |node_modules|\/src\//);
  }
}

async function runAll(cases: Case[], tally: Tally): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: CONCURRENCY }, async () => {
    while (next < cases.length) {
      const c = cases[next++];
      judge(c, await rawRequest(port, c, ANSWER_WITHIN_MS), tally);
    }
  });
  await Promise.all(lanes);
}

describe(`HTTP fuzz (seed ${SEED})`, () => {
  it(`answers ${RANDOM_REQUESTS} random and hostile requests with 2xx or a 4xx in the contract shape, never 5xx, never hanging`, async () => {
    const cases = fc.sample(request, { numRuns: RANDOM_REQUESTS, seed: SEED });
    const tally: Tally = { byStatus: new Map() };
    await runAll(cases, tally);
    // The run exercised both outcomes, not just one kind of refusal.
    const count = (pred: (status: number) => boolean) => [...tally.byStatus].filter(([st]) => st !== null && pred(st)).reduce((a, [, n]) => a + n, 0);
    expect(count((st) => st < 300)).toBeGreaterThan(50);
    expect(count((st) => st >= 400)).toBeGreaterThan(500);
    console.log(`fuzz seed ${SEED}: ${JSON.stringify(Object.fromEntries([...tally.byStatus].sort()))}`);
  }, 240_000);

  it('still answers a normal search afterwards', async () => {
    const r = await call(s.url, s.apiKey, 'GET', '/companies?q=bygg&limit=5');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.data)).toBe(true);
  });
});
