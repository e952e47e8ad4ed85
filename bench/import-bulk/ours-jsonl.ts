// Our own import format for the bench: the first `count` companies of a register (either store)
// as JSONL in the export's shape, optionally with `changedShare` of them renamed.
import type { SearchFilters } from '../../src/core/search-params.js';
import { openStore } from '../../src/store/open-store.js';
import type { StoreLocation } from '../../src/store/store.js';
import { ChunkedWriter } from './chunked-writer.js';
import { hash } from './random.js';

const EVERY_COMPANY = { status: null, radius_km: 0 } as unknown as SearchFilters;
const SLICE_ROWS = 10_000;

export async function writeOursJsonl(location: StoreLocation, path: string, count: number, changedShare: number, salt: number): Promise<number> {
  const store = await openStore(location);
  try {
    const out = new ChunkedWriter(path, 'utf8');
    const lastRow = await store.companies.lastRow();
    let n = 0;
    for (let after = 0; n < count && after < lastRow; after += SLICE_ROWS) {
      for (const company of await store.companies.slice(EVERY_COMPANY, after, after + SLICE_ROWS, { expand: ['latest_financials'] })) {
        if (n >= count) break;
        if (hash(n, salt) < changedShare) company.name = `${company.name} Ny`;
        out.write(`${JSON.stringify(company)}\n`);
        n++;
      }
    }
    out.close();
    return n;
  } finally {
    await store.close();
  }
}
