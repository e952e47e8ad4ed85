// sort=distance. No index holds distances from a point chosen at query time, so a page is read
// outwards in rings: the companies whose distance lies between where the page starts (the
// cursor's distance) and a radius guessed to hold a page, found through the spatial index by
// the boxes of the ring (ring-boxes.ts, leaving out the disc already passed), tested,
// and sorted by exact distance; the ring widens while too few pass. Every company nearer than
// a ring's outer edge has then been seen, so the nearest of them are the page, and a deep page
// costs its own ring, not the disc inside it. A circle that holds few companies is read whole.
//
// The distance a cursor carries is computed here, in JavaScript, by the SQLite store's
// haversineKm: PostgreSQL's sin and cos may differ in the last bit, and a cursor made by either
// store must mean the same row to the other. SQL's distance selects and orders the rows read.
import type { SearchQuery } from '../../../core/search-params.js';
import { haversineKm } from '../../sqlite/search/geo-math.js';
import type { Queryable } from '../database.js';
import { type Condition, type Conditions, distanceSql } from './filters.js';
import { companiesInBox, SMALL_BOX } from './near.js';
import type { Position } from './position.js';
import { type Hit, readStretch } from './read.js';
import { ringBoxes } from './ring-boxes.js';
import { type Sql, sql } from './sql.js';

/**
 * Bands of a thin ring at most (ring-boxes.ts): each band is a box or two to plan and look up,
 * and a band's boxes are as tall as the band, however thin the ring. 48 against 24: a deep page
 * around Stockholm 23.6 -> 14.9 ms (rows read 4,357 -> ~1,500), no other class slower.
 */
const BANDS = 48;
/**
 * A circle whose box holds at most this many companies is read whole and sorted. Fewer than
 * near.ts's SMALL_BOX: each row read is a random heap visit plus a distance, and a few rings
 * (each a page or so) cost less than a box of thousands (Visby, 10 km: 4,000 rows, 13 ms).
 */
const WHOLE_CIRCLE = 600;
/**
 * A cursor's distance, to within SQL's rounding (km): rows this near it count as at it, ordered
 * by rowid (they are at the same point; the two functions differ by about 1e-13 km at 500 km).
 */
const SAME = 1e-9;

export async function distancePage(db: Queryable, query: SearchQuery, conds: Conditions, checks: Condition[], after: Position | null, need: number): Promise<Hit[]> {
  const near = query.filters.near!;
  const radius = query.filters.radius_km;
  const expand = query.expand.includes('latest_financials');
  const d = distanceSql(near);
  const keyset = after
    ? sql(`(${d.sql} > ? OR (${d.sql} >= ? AND c.rowid > ?))`, ...d.params, Number(after.v) + SAME, ...d.params, Number(after.v) - SAME, after.r)
    : null;
  const read = async (where: Sql[], limit: number): Promise<Hit[]> => {
    const got = await readStretch(db, { where, value: d, orderBy: 'v, c.rowid', limit }, expand);
    const hits = got.map((h) => ({ ...h, v: haversineKm(near.lat, near.lng, h.row.lat!, h.row.lng!) }));
    return hits.sort((a, b) => a.v - b.v || a.r - b.r);
  };
  const inBox = await companiesInBox(db, conds.box!);
  if (inBox <= WHOLE_CIRCLE) return read([...checks, conds.box!, ...(keyset ? [keyset] : [])], need);
  // A ring lies within the radius (its outer edge is tested), so `near` itself is not tested
  // again: on a dense ring, each distance computed is a good part of a row's cost.
  const others = checks.filter((c) => c.name !== 'near');
  const hits: Hit[] = [];
  const start = after ? Number(after.v) : 0;
  let done = start;
  let width = Math.min(radius, start > 0 ? Math.max(0.002, start * 0.002) : firstRing(radius, inBox, need));
  for (let first = true; ; first = false) {
    const outer = Math.min(radius, done + width);
    const boxes = ringBoxes(near.lat, near.lng, done * 0.999, outer, Math.max(outer - done, outer / BANDS), BANDS);
    const inRing = {
      sql: boxes.map(() => 'point(c.lng, c.lat) <@ box(point(?, ?), point(?, ?))').join(' OR '),
      params: boxes.flatMap((b) => [b.minLng, b.minLat, b.maxLng, b.maxLat]),
    };
    // Beyond the cursor in the first ring; beyond the last ring's edge (as SQL measured it) after.
    const lower = first ? keyset : sql(`${d.sql} > ?`, ...d.params, done);
    const got = await read([...others, inRing, sql(`${d.sql} <= ?`, ...d.params, outer), ...(lower ? [lower] : [])], need - hits.length);
    hits.push(...got);
    if (hits.length >= need || outer >= radius) return hits;
    // Widen so that the next ring should hold what is missing, from the density just seen.
    const area = Math.PI * (outer * outer - done * done);
    if (got.length === 0) width = (outer - done) * 4;
    else {
      const density = got.length / Math.max(area, 1e-9);
      const next = Math.sqrt(outer * outer + ((need - hits.length) * 1.5) / density / Math.PI);
      width = Math.max(next - outer, (outer - done) * 0.5);
    }
    done = outer;
  }
}

/**
 * The first ring's radius (km): when the box's companies were counted exactly (near.ts counts up
 * to SMALL_BOX), a disc that should hold twice a page at the box's mean density (the box is
 * 2r × 2r); each further ring is a round trip. A box beyond the count starts narrow.
 */
function firstRing(radius: number, inBox: number, need: number): number {
  if (inBox > SMALL_BOX) return 0.05;
  const density = inBox / (4 * radius * radius);
  return Math.max(0.05, Math.sqrt((2 * need) / (Math.PI * density)));
}
