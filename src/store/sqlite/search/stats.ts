// Reading `company_counts` (stats/count-keys.ts): the rows a driver yields, without counting
// them, for the planner; and include_total's exact count when the filters are a single
// dimension (plus status), from the table itself so that an import a moment ago is counted.
import type { SearchFilters } from '../../../core/search-params.js';
import type { Db } from '../database.js';
import { GRID_LAT, GRID_LNG } from '../stats/count-keys.js';
import type { Box } from './geo-math.js';
import type { Predicates } from './predicates.js';
import { pluckOne, rawAll } from './statements.js';

/** How a driver's rows are found in the statistics. */
export interface StatKey {
  dim: 'all' | 'county' | 'municipality' | 'category' | 'legal_form' | 'postal3' | 'sni' | 'grid';
  /** Equal to one of these values (disjoint: a row has one value of the dimension). */
  values?: readonly string[];
  /** Starting with one of these (postal codes, SNI codes); an estimate unless exact() says so. */
  prefixes?: readonly string[];
  /** Grid cells overlapping the box, the partly covered ones pro rata: an estimate. */
  box?: Box;
  /** The driver yields only rows of the statuses asked for (its index holds the status). */
  byStatus: boolean;
}

const TTL_MS = 10_000;
type Counts = Map<string, Map<string, number>>; // dim → value → rows (over the statuses asked)
const cache = new WeakMap<Db, { at: number; version: string; byStatus: Map<string, Counts> }>();

/** Changes when any connection has committed since (data_version: others; total_changes: this one). */
function version(db: Db): string {
  return String(pluckOne(db, 'SELECT (SELECT data_version FROM pragma_data_version) || \':\' || total_changes()', []));
}

function countsFor(db: Db, status: readonly string[] | null): Counts | null {
  let c = cache.get(db);
  const now = Date.now();
  if (!c || now - c.at > TTL_MS) {
    // Past the time to live, read again only if something was written meanwhile: a reload
    // costs milliseconds, which a search should pay rarely.
    const v = version(db);
    if (!c || c.version !== v) cache.set(db, (c = { at: now, version: v, byStatus: new Map() }));
    else c.at = now;
  }
  const key = status ? [...status].sort().join(',') : '*';
  let counts = c.byStatus.get(key);
  if (!counts) {
    let rows: unknown[][];
    try {
      rows = status
        ? rawAll(db, `SELECT dim, value, sum(n) FROM company_counts WHERE status IN (${status.map(() => '?').join(', ')}) GROUP BY dim, value`, status)
        : rawAll(db, 'SELECT dim, value, sum(n) FROM company_counts GROUP BY dim, value', []);
    } catch {
      return null; // a database older than migration 8 (opened read-only)
    }
    counts = new Map();
    for (const [dim, value, n] of rows as [string, string, number][]) {
      let m = counts.get(dim);
      if (!m) counts.set(dim, (m = new Map()));
      m.set(value, n);
    }
    if (!counts.has('all')) return null; // an empty register, or statistics not written yet
    c.byStatus.set(key, counts);
  }
  return counts;
}

/** Rows the key selects under these statuses, or null when the statistics cannot say. */
export function statRows(db: Db, key: StatKey, status: readonly string[] | null): number | null {
  const counts = countsFor(db, status);
  if (!counts) return null;
  const dim = counts.get(key.dim) ?? new Map<string, number>();
  if (key.values) return key.values.reduce((sum, v) => sum + (dim.get(v) ?? 0), 0);
  if (key.prefixes) {
    let sum = 0;
    for (const [value, n] of dim) if (key.prefixes.some((p) => value.startsWith(p) || p.startsWith(value))) sum += p3share(key, value, n);
    return sum;
  }
  if (key.box) return gridRows(dim, key.box);
  return null;
}

/** A postal prefix longer than the three digits kept takes a share of its three-digit count. */
function p3share(key: StatKey, value: string, n: number): number {
  const longest = Math.max(...key.prefixes!.filter((p) => p.startsWith(value)).map((p) => p.length), 0);
  return longest > value.length ? n / 10 ** (longest - value.length) : n;
}

function gridRows(cells: Map<string, number>, b: Box): number {
  let sum = 0;
  const lat0 = Math.floor(b.minLat * GRID_LAT);
  const lat1 = Math.floor(b.maxLat * GRID_LAT);
  const lng0 = Math.floor(b.minLng * GRID_LNG);
  const lng1 = Math.floor(b.maxLng * GRID_LNG);
  if ((lat1 - lat0 + 1) * (lng1 - lng0 + 1) > cells.size) {
    // A box wider than the occupied cells: walk the cells instead, parsed once per load of the
    // statistics (splitting each cell's key per search was most of near=…&radius_km=500's time).
    const { la, lo, n } = parsedCells(cells);
    for (let i = 0; i < n.length; i++) {
      if (la[i] >= lat0 && la[i] <= lat1 && lo[i] >= lng0 && lo[i] <= lng1) sum += n[i] * overlap(la[i], lo[i], b);
    }
    return sum;
  }
  for (let la = lat0; la <= lat1; la++) {
    for (let lo = lng0; lo <= lng1; lo++) {
      const n = cells.get(`${la}:${lo}`);
      if (n) sum += n * overlap(la, lo, b);
    }
  }
  return sum;
}

const parsed = new WeakMap<Map<string, number>, { la: Int32Array; lo: Int32Array; n: Float64Array }>();

/** The occupied grid cells as numbers ('lat:lng' keys split once). */
function parsedCells(cells: Map<string, number>): { la: Int32Array; lo: Int32Array; n: Float64Array } {
  let p = parsed.get(cells);
  if (!p) {
    p = { la: new Int32Array(cells.size), lo: new Int32Array(cells.size), n: new Float64Array(cells.size) };
    let i = 0;
    for (const [cell, count] of cells) {
      const colon = cell.indexOf(':');
      p.la[i] = Number(cell.slice(0, colon));
      p.lo[i] = Number(cell.slice(colon + 1));
      p.n[i++] = count;
    }
    parsed.set(cells, p);
  }
  return p;
}

/** The share of a grid cell inside the box. */
function overlap(la: number, lo: number, b: Box): number {
  const h = Math.max(0, Math.min(b.maxLat, (la + 1) / GRID_LAT) - Math.max(b.minLat, la / GRID_LAT)) * GRID_LAT;
  const w = Math.max(0, Math.min(b.maxLng, (lo + 1) / GRID_LNG) - Math.max(b.minLng, lo / GRID_LNG)) * GRID_LNG;
  return h * w;
}

/**
 * The exact number of matches from the statistics, or null when they cannot give it: every
 * filter but status must be one dimension with disjoint values (any counties, municipalities,
 * categories or legal forms; postal prefixes of up to three digits; one whole SNI code).
 */
export function exactCountFromStats(db: Db, filters: SearchFilters, preds: Predicates): number | null {
  const others = preds.list.filter((p) => p.name !== 'status');
  let dim = 'all';
  let where = "value = ''";
  let params: unknown[] = [];
  if (others.length > 1) return null;
  if (others.length === 1) {
    const key = others[0].drivers[0]?.stat;
    if (!key || !exact(key)) return null;
    dim = key.dim;
    if (key.values) {
      where = `value IN (${key.values.map(() => '?').join(', ')})`;
      params = [...key.values];
    } else {
      where = `(${key.prefixes!.map(() => 'substr(value, 1, ?) = ?').join(' OR ')})`;
      params = key.prefixes!.flatMap((p) => [p.length, p]);
    }
  }
  const status = filters.status;
  const statusSql = status ? ` AND status IN (${status.map(() => '?').join(', ')})` : '';
  try {
    if (pluckOne(db, "SELECT 1 FROM company_counts WHERE dim = 'all' LIMIT 1", []) === undefined) return null;
    return pluckOne(db, `SELECT coalesce(sum(n), 0) FROM company_counts WHERE dim = ? AND ${where}${statusSql}`, [dim, ...params, ...(status ?? [])]) as number;
  } catch {
    return null;
  }
}

function exact(key: StatKey): boolean {
  if (key.values) return key.dim !== 'grid';
  if (!key.prefixes) return false;
  if (key.dim === 'sni') return key.prefixes.length === 1 && key.prefixes[0].length === 5;
  // Postal prefixes: counted by their first three digits, so up to three, and none inside another.
  const ps = key.prefixes;
  return key.dim === 'postal3' && ps.every((p) => p.length <= 3) && ps.every((p, i) => ps.every((q, j) => i === j || !q.startsWith(p)));
}
