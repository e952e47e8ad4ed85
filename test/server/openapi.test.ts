// The OpenAPI document is served without a key, is internally sound, names exactly the
// parameters the server accepts, and every real response below (success and error) has a
// status the document lists for its operation and a body that validates against its schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PARAMS } from '../../src/core/search-params.js';
import { get, type Reply, type SearchServer, startSearchServer } from '../helpers/search-server.js';
import { validate } from './json-schema.js';

let s: SearchServer;
let doc: any;
beforeAll(async () => {
  s = await startSearchServer();
  const r = await get(s, '/openapi.json', null);
  expect(r.status).toBe(200);
  doc = r.body;
});
afterAll(async () => s?.close());

function operationFor(method: string, path: string): { op: any; template: string } {
  const bare = path.split('?')[0];
  for (const [template, ops] of Object.entries<any>(doc.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (re.test(bare) && ops[method.toLowerCase()]) return { op: ops[method.toLowerCase()], template };
  }
  throw new Error(`the document has no operation for ${method} ${bare}`);
}

function conforms(method: string, path: string, r: Reply) {
  const { op, template } = operationFor(method, path);
  const response = op.responses[String(r.status)];
  expect(response, `${method} ${template} does not document status ${r.status}`).toBeDefined();
  const schema = response.content?.['application/json']?.schema;
  expect(schema, `${method} ${template} ${r.status} has no JSON schema`).toBeDefined();
  const errors = validate(schema, r.body, doc);
  expect(errors, `${method} ${path} → ${r.status}\n${errors.slice(0, 5).join('\n')}`).toEqual([]);
  for (const name of Object.keys(response.headers ?? {})) {
    if (name === 'Request-Id') expect(r.headers.get('request-id')).toBeTruthy();
  }
}

async function call(path: string, key: string | null = s.key) {
  const r = await get(s, path, key);
  conforms('GET', path, r);
  return r;
}

describe('the document', () => {
  it('is OpenAPI 3.1 with servers, bearer security, and every $ref resolving', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(s.url);
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice(8, -1).replace(/^#\//, '').split('/').reduce((o: any, k: string) => o?.[k], doc);
      expect(target, ref).toBeDefined();
    }
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const p of op.parameters ?? []) if (p.in === 'path') expect(path).toContain(`{${p.name}}`);
      }
    }
  });

  it('names the Location header of what a POST makes, and uses only formats OpenAPI knows (found by a review, 2026-11-29)', () => {
    expect(doc.paths['/exports'].post.responses['202'].headers.Location).toBeDefined();
    expect(doc.paths['/webhooks'].post.responses['201'].headers.Location).toBeDefined();
    const formats = [...JSON.stringify(doc).matchAll(/"format":"([^"]+)"/g)].map((m) => m[1]);
    const known = new Set(['date', 'date-time', 'uri', 'email', 'uuid', 'int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']);
    expect(formats.filter((f) => !known.has(f))).toEqual([]);
  });

  it('covers the whole API: search, one company, categories, exports, webhooks', () => {
    for (const p of ['/companies', '/companies/{id}', '/categories', '/openapi.json', '/exports', '/exports/{id}', '/webhooks', '/webhooks/{id}', '/webhooks/{id}/test']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });

  it('GET /companies lists exactly the parameters the server accepts', async () => {
    const names = operationFor('GET', '/companies').op.parameters.map((p: any) => p.name).sort();
    expect(names).toEqual(Object.keys(SEARCH_PARAMS).sort());
    for (const p of operationFor('GET', '/companies').op.parameters) {
      expect(p.description, p.name).toBeTruthy();
      expect(p.in).toBe('query');
    }
  });

  it('parameter schemas agree with the server: documented values are accepted, documented bounds enforced', async () => {
    const op = operationFor('GET', '/companies').op;
    const param = (name: string) => op.parameters.find((p: any) => p.name === name);
    // Booleans are documented as booleans, whatever spellings the server also reads.
    for (const name of ['f_skatt', 'include_total', 'exclude_advertising_blocked', 'has_financials']) expect(param(name).schema, name).toEqual({ type: 'boolean' });
    const asDoc = (p: any, raw: string): unknown => {
      if (p.schema.type === 'array') return raw.split(',');
      if (p.schema.type === 'number' || p.schema.type === 'integer') return Number(raw);
      if (p.schema.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
      return raw;
    };
    const samples: [string, string, boolean][] = [
      ['limit', '1', true], ['limit', '100', true], ['limit', '0', false], ['limit', '101', false],
      ['radius_km', '500', true], ['radius_km', '0', false], ['radius_km', '501', false],
      ['sort', '-revenue', true], ['sort', 'size', false], ['expand', 'latest_financials', true], ['expand', 'owners', false],
      ['legal_form', 'aktiebolag,filial', true], ['trend', 'växande', true], ['fields', 'name,revenue', true], ['fields', 'secret', false],
      ['f_skatt', 'true', true], ['include_total', 'false', true], ['q', 'x'.repeat(200), true], ['q', 'x'.repeat(201), false],
      ['near', '59.3,18.1', true], ['near', 'here', false],
    ];
    for (const [name, raw, ok] of samples) {
      const p = param(name);
      const docOk = validate(p.schema, asDoc(p, raw), doc).length === 0;
      expect(docOk, `document on ${name}=${raw}`).toBe(ok);
      const extra = name === 'radius_km' ? '&near=59.3,18.1' : '';
      const r = await get(s, `/companies?${name}=${encodeURIComponent(raw)}${extra}&limit=${name === 'limit' ? '' : '1'}`.replace('&limit=&', '&').replace(/&limit=$/, ''), s.key);
      expect(r.status === 200, `server on ${name}=${raw}: ${JSON.stringify(r.body).slice(0, 200)}`).toBe(ok);
    }
  });
});

describe('real responses conform', () => {
  it('searches of every shape', async () => {
    for (const qs of [
      'limit=3',
      'q=bygg&limit=5',
      'near=59.33,18.06&radius_km=50&sort=distance&limit=5',
      'county=01&sort=-revenue&include_total=true&limit=5',
      'fields=name,county,revenue&limit=5',
      'fields=name&near=59.33,18.06&expand=latest_financials&limit=5',
      'expand=latest_financials&has_financials=true&limit=5',
      'status=all&sort=equity_ratio&limit=100',
      'municipality=0180&legal_form=handelsbolag&limit=100',
    ]) {
      const r = await call(`/companies?${qs}`);
      expect(r.status).toBe(200);
      if (r.body.pagination.has_more) await call(`/companies?${qs}&cursor=${encodeURIComponent(r.body.pagination.next_cursor)}`);
    }
  });

  it('one company, categories', async () => {
    const c = s.all()[5];
    expect((await call(`/companies/${c.id}`)).status).toBe(200);
    expect((await call(`/companies/${c.org_nr}?expand=latest_financials`)).status).toBe(200);
    expect((await call(`/companies/${c.id}?fields=name`)).status).toBe(200);
    expect((await call('/categories')).status).toBe(200);
  });

  it('errors: 400, 401, 403, 404', async () => {
    expect((await call('/companies?limit=0')).status).toBe(400);
    expect((await call('/companies?nope=1')).status).toBe(400);
    expect((await call('/companies', null)).status).toBe(401);
    expect((await call('/companies', await s.keyFor(['exports:read']))).status).toBe(403);
    expect((await call('/companies/c_zzzzzzz')).status).toBe(404);
  });

  it('other resources: exports and webhooks', async () => {
    const pro = await s.keyFor(['webhooks:manage', 'exports:read'], undefined, 'pro');
    const r = await call('/webhooks', pro);
    expect(r.status).toBe(200);
    expect((await call('/webhooks', s.key)).status).toBe(403); // a free plan
    expect((await call('/exports/exp_doesnotexist')).status).toBe(404);
  });
});
