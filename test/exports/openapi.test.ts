// Real responses of the export endpoints against the published OpenAPI document: every status
// listed for its operation, every JSON body valid against its schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../server/json-schema.js';
import { api, http, startTestServer, waitForExport, type Reply, type TestServer } from './helpers.js';

let t: TestServer;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  const r = await http(`${t.url}/openapi.json`);
  expect(r.status).toBe(200);
  doc = await r.json();
}, 60_000);
afterAll(async () => t?.cleanup());

function conforms(method: string, template: string, r: Pick<Reply, 'status' | 'body'>) {
  const op = doc.paths[template]?.[method.toLowerCase()];
  expect(op, `no operation ${method} ${template}`).toBeDefined();
  const response = op.responses[String(r.status)];
  expect(response, `${method} ${template} does not document status ${r.status}`).toBeDefined();
  const schema = response.content?.['application/json']?.schema;
  if (r.body === null) return;
  expect(schema, `${method} ${template} ${r.status} has no JSON schema`).toBeDefined();
  expect(validate(schema, r.body, doc)).toEqual([]);
}

async function raw(url: string, headers: Record<string, string> = {}) {
  const res = await http(url, { headers });
  const type = res.headers.get('content-type') ?? '';
  return { status: res.status, body: type.startsWith('application/json') ? await res.json() : (await res.arrayBuffer(), null) };
}

describe('the export endpoints match the OpenAPI document', () => {
  it('for POST /exports, GET /exports and GET /exports/{id}', async () => {
    const created = await api(t, t.key, 'POST', '/exports', { format: 'jsonl', filters: { county: '14' }, fields: ['name'] }, { 'idempotency-key': 'oa' });
    conforms('POST', '/exports', created);
    conforms('POST', '/exports', await api(t, t.key, 'POST', '/exports', { format: 'csv' }, { 'idempotency-key': 'oa' })); // 409
    conforms('POST', '/exports', await api(t, t.key, 'POST', '/exports', { format: 'xml' })); // 400
    conforms('POST', '/exports', await api(t, null, 'POST', '/exports', {})); // 401
    const e = await waitForExport(t, t.key, created.body.data.id);
    conforms('GET', '/exports/{id}', await api(t, t.key, 'GET', `/exports/${e.id}`));
    conforms('GET', '/exports/{id}', await api(t, t.key, 'GET', '/exports/exp_missing'));
    conforms('GET', '/exports', await api(t, t.key, 'GET', '/exports?limit=1'));
    conforms('GET', '/exports', await api(t, t.key, 'GET', '/exports?limit=1000'));
  });

  it('for the signed links', async () => {
    const created = await api(t, t.key, 'POST', '/exports', { format: 'csv', filters: { county: '01' } });
    const e = await waitForExport(t, t.key, created.body.data.id);
    conforms('GET', '/exports/{id}/files/{n}', await raw(e.files[0].url));
    conforms('GET', '/exports/{id}/files/{n}', await raw(e.files[0].url, { range: 'bytes=0-9' }));
    conforms('GET', '/exports/{id}/files/{n}', await raw(e.files[0].url, { range: `bytes=${e.files[0].bytes}-` }));
    conforms('GET', '/exports/{id}/files/{n}', await raw(e.files[0].url.replace(/signature=./, 'signature=_')));
    conforms('GET', '/exports/{id}/download', await raw(e.download_url));
    conforms('GET', '/exports/{id}/download', await raw(e.download_url.replace(/expires=\d+/, 'expires=1')));
  });
});
