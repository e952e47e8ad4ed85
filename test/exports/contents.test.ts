// The files of an export against a search with the same filters: same rows, advertising block
// excluded, the CSV dialect, parts of exportPartRows rows, sha256, and the ZIP of the parts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowFromCompanyId } from '../../src/core/company-id.js';
import { companyCsvColumns, CSV_BOM, csvRow, parseCsv } from '../../src/core/csv.js';
import { api, download, searchAll, startTestServer, waitForExport, type TestServer } from './helpers.js';
import { zipEntries, zipEntry } from './zip.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ exportPartRows: 500 });
}, 60_000);
afterAll(async () => t?.cleanup());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function exportOf(body: Record<string, unknown>) {
  const created = await api(t, t.key, 'POST', '/exports', body);
  expect(created.status).toBe(202);
  const e = await waitForExport(t, t.key, created.body.data.id);
  expect(e.status).toBe('completed');
  return e;
}

/** Downloads every part and checks it against its record: bytes, sha256, rows. */
async function parts(e: any): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const f of e.files) {
    const r = await download(f.url);
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(f.bytes);
    expect(sha256(r.bytes)).toBe(f.sha256);
    out.push(r.bytes);
  }
  return out;
}

describe('CSV', () => {
  it('holds the same rows as the search, in parts of 500, without advertising-blocked companies', async () => {
    const e = await exportOf({ format: 'csv' });
    const searched = await searchAll(t, t.key, { exclude_advertising_blocked: 'true' });
    const everyActive = await searchAll(t, t.key, {});
    expect(everyActive.length).toBeGreaterThan(searched.length); // the block is there to exclude
    expect(e.row_count).toBe(searched.length);
    expect(e.files.length).toBe(Math.ceil(searched.length / 500));
    expect(e.files.map((f: any) => f.rows)).toEqual(e.files.map((_: unknown, i: number) => Math.min(500, searched.length - i * 500)));

    const columns = companyCsvColumns();
    const got: string[] = [];
    for (const [i, bytes] of (await parts(e)).entries()) {
      // UTF-8 BOM, then the header with ; as separator, in every part.
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.toString('utf8');
      expect(text.startsWith(CSV_BOM + columns.join(';') + '\r\n')).toBe(true);
      const rows = parseCsv(text);
      expect(rows[0]).toEqual(columns);
      expect(rows.length - 1).toBe(e.files[i].rows);
      got.push(...rows.slice(1).map((r) => JSON.stringify(r)));
    }
    const expected = searched.map((c) => JSON.stringify(parseCsv(csvRow(c, columns))[0]));
    expect(got.sort()).toEqual(expected.sort());
    // Nested fields flattened with dots, quoted where needed.
    expect(columns).toContain('address.city');
    expect(columns).toContain('category.slug');
  });

  it('limits the columns to fields (id always first)', async () => {
    // A field named twice is one column (found by an exploratory run, 2026-11-28: it was two).
    const e = await exportOf({ format: 'csv', fields: ['name', 'address', 'name'], filters: { county: 'Västra Götalands län' } });
    expect(e.fields).toEqual(['name', 'address']);
    const [bytes] = await parts(e);
    expect(e.files.length).toBe(1);
    const rows = parseCsv(bytes.toString('utf8'));
    expect(rows[0]).toEqual(['id', 'name', 'address.street', 'address.postal_code', 'address.city']);
    const searched = await searchAll(t, t.key, { county: '14', exclude_advertising_blocked: 'true', fields: 'name,address' });
    expect(rows.length - 1).toBe(searched.length);
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual(searched.map((c) => c.id).sort());
  });

  it('serves one part itself as download_url, a ZIP of the parts otherwise', async () => {
    const single = await exportOf({ format: 'csv', filters: { county: '14' } });
    expect(single.files.length).toBe(1);
    const whole = await download(single.download_url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(whole.headers.get('content-disposition')).toBe(`attachment; filename="${single.id}.csv"`);
    expect(sha256(whole.bytes)).toBe(single.files[0].sha256);

    const multi = await exportOf({ format: 'csv', filters: { status: 'all' } });
    expect(multi.files.length).toBeGreaterThan(2);
    const zip = await download(multi.download_url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const { path, names } = await zipEntries(t.dir, zip.bytes);
    expect(names).toEqual(multi.files.map((f: any) => f.name));
    expect(names[0]).toBe(`${multi.id}-part-001.csv`);
    for (const [i, f] of multi.files.entries()) {
      const entry = await zipEntry(path, names[i]);
      expect(sha256(entry)).toBe(f.sha256);
      expect(entry.length).toBe(f.bytes);
    }
  });
});

describe('JSONL', () => {
  it('is one API record a line, the same records as the search', async () => {
    const e = await exportOf({ format: 'jsonl', filters: { legal_form: 'aktiebolag' } });
    const searched = await searchAll(t, t.key, { legal_form: 'aktiebolag', exclude_advertising_blocked: 'true' });
    const lines = (await parts(e)).flatMap((b) => {
      const text = b.toString('utf8');
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
      expect(text.endsWith('\n')).toBe(true);
      return text.split('\n').filter(Boolean);
    });
    const records = lines.map((l) => JSON.parse(l));
    expect(records.length).toBe(searched.length);
    expect(records.every((r) => r.advertising_blocked === false && r.legal_form === 'aktiebolag')).toBe(true);
    const byId = new Map(searched.map((c) => [c.id, c]));
    for (const r of records) expect(r).toEqual(byId.get(r.id));
    // In register order (by company id number), each part starting where the previous ended.
    const numbers = records.map((r) => rowFromCompanyId(r.id)!);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('carries distance_km with near, like the search', async () => {
    const filters = { near: '57.7089,11.9746', radius_km: '60' };
    const e = await exportOf({ format: 'jsonl', filters });
    const searched = await searchAll(t, t.key, { ...filters, exclude_advertising_blocked: 'true' });
    expect(searched.length).toBeGreaterThan(0);
    const records = (await parts(e)).flatMap((b) => b.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
    const byId = new Map(searched.map((c) => [c.id, c]));
    expect(records.length).toBe(searched.length);
    for (const r of records) expect(r).toEqual(byId.get(r.id));
  });

  it('writes an export with no rows as one empty part', async () => {
    const e = await exportOf({ format: 'jsonl', filters: { q: 'zzzzqqqxx' } });
    expect(e.row_count).toBe(0);
    expect(e.files).toHaveLength(1);
    expect(e.files[0]).toMatchObject({ rows: 0, bytes: 0 });
    const csv = await exportOf({ format: 'csv', filters: { q: 'zzzzqqqxx' } });
    const [bytes] = await parts(csv);
    expect(parseCsv(bytes.toString('utf8'))).toEqual([companyCsvColumns()]);
  });
});
