// sort=distance. No index holds distances from a point chosen at query time, so the page is
// grown outwards: read the ring of the R*Tree from the cursor's distance to a radius guessed
// to hold a page, test its rows, widen while too few pass. Every row nearer than the ring's
// outer edge has then been seen, so the nearest of them are the page. A deep page reads only
// its own ring (geo-math.ts ringBoxes), not the disc inside it.
// When the circle holds few rows, or another filter yields few, those are collected instead.
import type { Db } from '../database.js';
import { collect } from './collect.js';
import { type Box, haversineKm, ringBoxes } from './geo-math.js';
import { assess, rankDrivers, type PlanInput, type Planned } from './planner.js';
import { TUNING } from './tuning.js';
import { allChecks, type Predicate, type Sql } from './predicates.js';
import { driverRows } from './estimates.js';
import { rawAll } from './statements.js';
import type { Hit } from './walk.js';

export function distancePage(input: PlanInput): Planned {
  const { db, query, preds, after, need } = input;
  const near = query.filters.near!;
  const radius = query.filters.radius_km;
  const checks = allChecks(preds);
  const value = { sql: 'distance_km(c.lat, c.lng, ?, ?)', params: [near.lat, near.lng], nullable: false };
  const geo = preds.list.find((p) => p.name === 'near') as Predicate;
  const inCircle = driverRows(db, geo.drivers[0], TUNING.estimateCap, preds.status).rows;
  if (inCircle <= TUNING.smallDriver) {
    return { hits: collect(db, geo.drivers[0], checks, value, false, after, need), plan: `collect near (~${inCircle}) by distance` };
  }
  const others = rankDrivers(db, preds, (p) => p === geo);
  const a = assess(db, preds, need, preds.list.filter((p) => p !== geo), others);
  const collectBest = (why: string): Planned => ({
    hits: collect(db, a.best?.driver ?? geo.drivers[0], checks, value, false, after, need),
    plan: `collect ${a.best?.driver.name ?? 'near'} by distance, ${why}`,
  });
  if (a.collect) return collectBest(a.why);
  const budget = a.best ? Math.max(2 * a.best.estimate, 4 * a.walkRows, TUNING.estimateCap) : Infinity;
  const r = rings(db, near, radius, checks, after ? { d: Number(after.v), r: after.r } : null, need, budget * TUNING.walkBudgetScale);
  if (r.complete) return { hits: r.hits, plan: `rings ~${Math.round(a.walkRows)}, read ${r.read}` };
  return collectBest(`rings gave up after ${r.read}`);
}

const BANDS = 24;

function rings(
  db: Db,
  center: { lat: number; lng: number },
  radius: number,
  checks: Sql,
  after: { d: number; r: number } | null,
  need: number,
  budget: number,
): { hits: Hit[]; read: number; complete: boolean } {
  // All the boxes of a ring in one statement (a UNION ALL of R*Tree reads, padded to a power of
  // two with empty boxes so that few statement texts recur). The R*Tree's own coordinates
  // answer "in the ring?" first, by an equirectangular distance (mid-latitude cosine; off from
  // the great circle by far less than the slack below at these ranges), so that only rows in
  // the ring are looked up in the table; the exact distance is computed for those.
  const K2 = 111.195 * 111.195;
  const branch = `SELECT c.rowid, c.lat, c.lng FROM companies_geo g CROSS JOIN companies c ON c.rowid = g.rowid
    WHERE g.min_lat >= ? AND g.max_lat <= ? AND g.min_lng >= ? AND g.max_lng <= ?
      AND ((g.min_lat - ?) * (g.min_lat - ?) + (g.min_lng - ?) * (g.min_lng - ?) * cos(radians((g.min_lat + ?) / 2)) * cos(radians((g.min_lat + ?) / 2))) * ${K2} BETWEEN ? AND ?
      AND ${checks.sql}`;
  const readBoxes = (boxes: Box[], lo: number, hi: number): unknown[][] => {
    let n = 1;
    while (n < boxes.length) n *= 2;
    // The approximation errs by under 0.25 % at 500 km at 68°N (about 2e-8 per km² of range,
    // measured); the slack is twice that, and float32 coordinates are within a metre. Near the
    // poles or across the antimeridian it does not hold: no ring test there.
    const slack = 0.002 + (5e-6 + 2e-8 * hi * hi) * hi;
    const usable = Math.abs(center.lat) + hi / 111 < 75 && Math.abs(center.lng) + hi / 20 < 180;
    const ring = [center.lat, center.lat, center.lng, center.lng, center.lat, center.lat, usable ? Math.max(0, lo - slack) ** 2 : 0, usable ? (hi + slack) ** 2 : Infinity];
    const params: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const b = boxes[i] ?? { minLat: 91, maxLat: -91, minLng: 181, maxLng: -181 };
      params.push(b.minLat, b.maxLat, b.minLng, b.maxLng, ...ring, ...checks.params);
    }
    return rawAll(db, Array.from({ length: n }, () => branch).join(' UNION ALL '), params);
  };
  const found: Hit[] = [];
  let read = 0;
  const start = after ? after.d : 0;
  let done = start; // every passing row nearer than this has been seen (or lies before the cursor)
  let width = Math.min(radius, start > 0 ? Math.max(0.002, start * 0.002) : 0.05);
  for (let first = true; ; first = false) {
    const outer = Math.min(radius, done + width);
    const seen = new Set<number>();
    let added = 0;
    // The boxes leave out the disc inside `done` (a hair less, so nothing on its edge is lost),
    // in about two dozen bands: finer boxes scan more R*Tree leaves than they spare.
    const boxes = ringBoxes(center.lat, center.lng, done * 0.999, outer, Math.max(outer - done, outer / BANDS), BANDS);
    for (let i = 0; i < boxes.length; i += 256) {
      const rows = readBoxes(boxes.slice(i, i + 256), first && after ? after.d : done, outer);
      read += rows.length;
      for (const [r, lat, lng] of rows as [number, number, number][]) {
        if (seen.has(r)) continue;
        seen.add(r);
        const d = haversineKm(center.lat, center.lng, lat, lng);
        if (d > outer) continue;
        if (first ? after !== null && (d < after.d || (d === after.d && r <= after.r)) : d <= done) continue;
        found.push({ r, v: d });
        added++;
      }
    }
    if (found.length >= need || outer >= radius) break;
    if (read > budget) return { hits: [], read, complete: false };
    // Widen so that the next ring should hold what is missing, from the density just seen.
    const area = Math.PI * (outer * outer - done * done);
    const missing = (need - found.length) * 1.5;
    if (added === 0) width = (outer - done) * 4;
    else {
      const density = added / Math.max(area, 1e-9);
      const next = Math.sqrt(outer * outer + missing / density / Math.PI);
      width = Math.max(next - outer, (outer - done) * 0.5);
    }
    done = outer;
  }
  found.sort((a, b) => (a.v as number) - (b.v as number) || a.r - b.r);
  return { hits: found.slice(0, need), read, complete: true };
}

