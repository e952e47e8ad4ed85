// The JSONL fast path: a page split into the server's own record bytes.
import { describe, expect, it } from 'vitest';
import { splitCompanyPage } from '../../src/cli/paging/raw-page.js';

const page = (data: unknown[], extra: Record<string, unknown> = { pagination: { limit: 2, has_more: true, next_cursor: 'c1' }, meta: { request_id: 'r' } }) =>
  Buffer.from(JSON.stringify({ data, ...extra }));

describe('splitCompanyPage', () => {
  it('returns each record exactly as sent, and the pagination', () => {
    const data = [
      { id: 'c1', name: 'Kaffe "Bönan" {AB}', address: { city: 'GÖTEBORG' }, sni_codes: ['10710', '47290'], note: 'slash \\ and ]},[' },
      { id: 'c2', name: 'Åäö 🐟 HB', location: null, nested: [[1, { a: '}' }]] },
    ];
    const raw = splitCompanyPage(page(data));
    expect(raw).not.toBeNull();
    expect(raw!.rows.map((r) => r.toString())).toEqual(data.map((d) => JSON.stringify(d)));
    expect(raw!.rest).toEqual({ pagination: { limit: 2, has_more: true, next_cursor: 'c1' }, meta: { request_id: 'r' } });
  });

  it('handles an empty page and a body of data alone', () => {
    expect(splitCompanyPage(page([]))).toEqual({ rows: [], rest: { pagination: { limit: 2, has_more: true, next_cursor: 'c1' }, meta: { request_id: 'r' } } });
    expect(splitCompanyPage(Buffer.from('{"data":[{"id":"x"}]}'))?.rows.map(String)).toEqual(['{"id":"x"}']);
  });

  it('declines anything but the compact shape, so the caller parses instead', () => {
    expect(splitCompanyPage(Buffer.from(JSON.stringify({ pagination: {}, data: [] })))).toBeNull();
    expect(splitCompanyPage(Buffer.from(JSON.stringify({ data: [{ id: 1 }] }, null, 2)))).toBeNull();
    expect(splitCompanyPage(Buffer.from('{"data":[{"id":"x"'))).toBeNull();
    expect(splitCompanyPage(Buffer.from('{"data":[1,2]}'))).toBeNull();
  });
});
