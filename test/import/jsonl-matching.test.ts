// Our JSONL settles a line equal to the stored record's export without parsing or planning it
// (src/import/ours/export-line.ts). The oracle: the same records in another key order, which no
// line can match, go through the full comparison; both registers must end the same, with the
// same counts and events.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedRegister } from '../../src/app/seed-register.js';
import type { Company } from '../../src/core/company.js';
import { importFile } from '../../src/import/import-file.js';
import { exportLineKey, matchesExportLine } from '../../src/import/ours/export-line.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

let dir: string;
let fast: SqliteStore;
let full: SqliteStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bolag-jsonl-match-'));
  fast = openSqliteStore(join(dir, 'fast.db'));
  full = openSqliteStore(join(dir, 'full.db'));
  for (const s of [fast, full]) await seedRegister(s, { count: 400, seed: 'jsonl-matching' });
});
afterEach(async () => {
  await fast.close();
  await full.close();
});

const write = (name: string, lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

async function exported(store: SqliteStore): Promise<Company[]> {
  const out: Company[] = [];
  for await (const c of store.companies.stream({ status: null, radius_km: 10 }, { expand: ['latest_financials'] })) out.push(c);
  return out;
}

/** The same record with org_nr first: no export head, so never matched, always compared in full. */
const reordered = (c: Record<string, unknown>) => JSON.stringify({ org_nr: c.org_nr, ...c });

async function eventsOf(store: SqliteStore) {
  return (await store.outbox.readAfter(0, 10_000)).map(({ event, subject }) => ({ type: event.type, data: event.data, subject }));
}

/** Imports the lines into `fast` as written and into `full` reordered; both must agree. */
async function importBoth(records: Record<string, unknown>[], raw: (string | null)[] = []) {
  const asWritten = records.map((r, i) => raw[i] ?? JSON.stringify(r));
  const result = await importFile(fast, write('fast.jsonl', asWritten));
  const oracle = await importFile(full, write('full.jsonl', records.map(reordered)));
  expect(result).toEqual(oracle);
  expect(await eventsOf(fast)).toEqual(await eventsOf(full));
  const strip = (cs: Company[]) => cs.map(({ updated_at: _u, ...c }) => c);
  expect(strip(await exported(fast))).toEqual(strip(await exported(full)));
  return result;
}

const FIELDS = [
  'name', 'legal_form', 'status', 'address', 'municipality_code', 'county_code', 'category', 'sni_codes', 'website',
  'website_status', 'employees_class', 'trend', 'revenue', 'profit', 'equity_ratio', 'revenue_growth', 'has_financials',
  'f_skatt', 'vat_registered', 'employer_registered', 'verified', 'advertising_blocked', 'registration_date', 'location',
  'latest_financials',
] as const;

describe('our JSONL: lines equal to the stored record', () => {
  it('reads the org nr of an export line from its head only, and nothing else as one', () => {
    expect(exportLineKey('{"id":"c_0000001","org_nr":"556677-8899","name":"x"}')).toBe('5566778899');
    expect(exportLineKey('{"org_nr":"556677-8899","id":"c_0000001"}')).toBeNull();
    expect(exportLineKey('{"id":"c_\\"1","org_nr":"556677-8899"}')).toBeNull();
    expect(exportLineKey('{"id":"c_1","org_nr":"5566\\u00378899"}')).toBeNull();
    expect(exportLineKey('{"id":"c_1","org_nr":"not a number"}')).toBeNull();
  });

  it('matches only the exact export of the stored company, with or without latest_financials', async () => {
    const [c] = await exported(fast);
    const line = JSON.stringify(c);
    const { latest_financials: _lf, ...plain } = c;
    const record = (text: string) => ({ line: 1, data: {}, key: exportLineKey(text)!, text });
    expect(matchesExportLine(record(line), c)).toBe(true);
    expect(matchesExportLine(record(JSON.stringify(plain)), c)).toBe(true);
    expect(matchesExportLine(record(JSON.stringify({ ...c, name: `${c.name} ` })), c)).toBe(false);
    expect(matchesExportLine(record(`${line} `), c)).toBe(false);
    expect(matchesExportLine(record(JSON.stringify({ ...c, updated_at: '2001-01-01T00:00:00.000Z' })), c)).toBe(false);
  });

  it('re-importing the export changes nothing, as the full comparison says', async () => {
    const records = await exported(fast);
    const result = await importBoth(records);
    expect(result).toMatchObject({ created: 0, updated: 0, unchanged: 400 });
  });

  it('still finds every changed field, each in a line of the export shape', async () => {
    const records = (await exported(fast)) as unknown as Record<string, unknown>[];
    const changed = records.map((r, i) => {
      const field = FIELDS[i % FIELDS.length];
      // Another company's value (valid for the schema, and mostly different), a flag flipped.
      const other = records[(i * 7 + 13) % records.length];
      const value = typeof r[field] === 'boolean' ? !r[field] : other[field];
      return i % 4 === 3 ? r : { ...r, [field]: value };
    });
    // A line without latest_financials (an export not expanded), one with only updated_at new,
    // one whose export head hides a later org_nr of another company (JSON takes the last).
    changed[3] = (({ latest_financials: _lf, ...rest }) => rest)(records[3]);
    changed[7] = { ...records[7], updated_at: '2001-01-01T00:00:00.000Z' };
    const twice = `${JSON.stringify(records[11]).slice(0, -1)},"org_nr":${JSON.stringify(records[12].org_nr)}}`;
    changed[11] = JSON.parse(twice) as Record<string, unknown>;
    const result = await importBoth(changed, changed.map((_, i) => (i === 11 ? twice : null)));
    expect(result.updated).toBeGreaterThan(150);
    expect(result.unchanged).toBeGreaterThan(90);
    const fields = new Set((await eventsOf(fast)).flatMap((e) => ((e.data as { changed_fields?: string[] }).changed_fields ?? [])));
    for (const f of FIELDS.filter((f) => f !== 'status' && f !== 'latest_financials')) expect(fields, f).toContain(f);
  });

  it('applies a later line equal to the stored record after an earlier one changed it', async () => {
    const records = (await exported(fast)) as unknown as Record<string, unknown>[];
    const a = records[5];
    const result = await importBoth([{ ...a, name: 'Mellanspel AB' }, records[6], a]);
    expect(result).toMatchObject({ updated: 2, unchanged: 1 });
    expect((await fast.companies.get(a.org_nr as string))!.name).toBe(a.name);
  });

  it('stops at the first unreadable line in line order, as when lines were parsed as read', async () => {
    const records = (await exported(fast)) as unknown as Record<string, unknown>[];
    const head = JSON.stringify(records[2]).slice(0, 60);
    const lines = [JSON.stringify(records[1]), JSON.stringify({ ...records[3], org_nr: '123' }), `${head} not json`, '[1]'];
    await expect(importFile(fast, write('bad.jsonl', lines))).rejects.toThrow(/^line 3: not valid JSON/);
    await expect(importFile(fast, write('bad2.jsonl', [lines[0], lines[1], lines[3]]))).rejects.toThrow(/^line 3: expected a JSON object/);
    expect(await eventsOf(fast)).toEqual([]);
  });
});
