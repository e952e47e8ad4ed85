// The companies a `near` box holds, estimated from the grid cells of company_counts
// (search/stats.ts): a wide box walks the occupied cells (their keys parsed once per load of
// the statistics), a narrow one looks its cells up; both must give what the cells say, each
// cell pro rata to its share inside the box.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRID_LAT, GRID_LNG } from '../../src/store/sqlite/stats/count-keys.js';
import { boundingBox } from '../../src/store/sqlite/search/geo-math.js';
import { statRows } from '../../src/store/sqlite/search/stats.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { sharedRegister } from '../helpers/search-server.js';

describe('near boxes priced from the grid statistics', () => {
  let store: SqliteStore;
  beforeAll(async () => {
    store = openSqliteStore(await sharedRegister());
  });
  afterAll(async () => store?.close());

  /** The same estimate, from the table and by hand. */
  const byHand = (box: ReturnType<typeof boundingBox>, status: string | null) => {
    const rows = store.db
      .prepare(`SELECT value, sum(n) AS n FROM company_counts WHERE dim = 'grid' ${status ? 'AND status = ?' : ''} GROUP BY value`)
      .all(...(status ? [status] : [])) as { value: string; n: number }[];
    let sum = 0;
    for (const { value, n } of rows) {
      const [la, lo] = value.split(':').map(Number);
      const h = Math.max(0, Math.min(box.maxLat, (la + 1) / GRID_LAT) - Math.max(box.minLat, la / GRID_LAT)) * GRID_LAT;
      const w = Math.max(0, Math.min(box.maxLng, (lo + 1) / GRID_LNG) - Math.max(box.minLng, lo / GRID_LNG)) * GRID_LNG;
      sum += n * h * w;
    }
    return sum;
  };

  for (const [lat, lng, km] of [[59.3293, 18.0686, 10], [59.3293, 18.0686, 500], [67.8558, 20.2253, 500], [62, 16, 1500], [57.6348, 18.2948, 3]] as const) {
    it(`near=${lat},${lng}&radius_km=${km}`, () => {
      const box = boundingBox(lat, lng, km);
      for (const status of [null, 'aktiv']) {
        const got = statRows(store.db, { dim: 'grid', box, byStatus: false }, status ? [status] : null)!;
        expect(got).toBeCloseTo(byHand(box, status), 6);
        // Twice: the second from the cells parsed by the first.
        expect(statRows(store.db, { dim: 'grid', box, byStatus: false }, status ? [status] : null)).toBe(got);
      }
      if (km >= 500) expect(byHand(box, null)).toBeGreaterThan(0);
    });
  }
});
