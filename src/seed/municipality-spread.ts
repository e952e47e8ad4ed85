// How far from its municipality's centre a generated company may lie. Population alone made a
// small suburb as wide as a rural county: Lidingö's companies spread ~9 km, half of them in
// central Stockholm, so `--near` Sergels torg with 2 km found Lidingö, Solna and Täby companies
// (exploratory run, 2026-11-29). The nearest other centre bounds a municipality far better: a
// suburb's is a few kilometres away, Kiruna's a hundred.
import { MUNICIPALITIES, type Municipality } from '../reference/municipalities.js';

const KM_PER_DEG = 111.2;

/** Kilometres between two points, flat-earth (ample for ranking neighbours a few dozen km apart). */
function roughKm(a: Municipality, b: Municipality): number {
  const dLat = (a.lat - b.lat) * KM_PER_DEG;
  const dLng = (a.lng - b.lng) * KM_PER_DEG * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.hypot(dLat, dLng);
}

let nearest: Map<string, number> | undefined;

/** Kilometres to the nearest other municipality's centre. */
function nearestCentreKm(m: Municipality): number {
  nearest ??= new Map(MUNICIPALITIES.map((a) => [a.code, Math.min(...MUNICIPALITIES.filter((b) => b !== a).map((b) => roughKm(a, b)))]));
  return nearest.get(m.code) ?? 10;
}

/** Degrees of latitude and of longitude for a standard deviation of `km` at the municipality's centre. */
function degrees(m: Municipality, km: number): { lat: number; lng: number } {
  return { lat: km / KM_PER_DEG, lng: km / (KM_PER_DEG * Math.cos(m.lat * (Math.PI / 180))) };
}

/**
 * The standard deviations of a company's position around the centre: `town` for those in the
 * main town (most of them: it spreads as its population's square root, up to 60 % of the way to
 * the nearest centre), `area` for the rest of the municipality (a third of the way to the nearest
 * centre, up to 20 km: most stay on their side of the border).
 */
export function positionSpread(m: Municipality): { town: { lat: number; lng: number }; area: { lat: number; lng: number } } {
  const toNearest = nearestCentreKm(m);
  const townKm = Math.max(0.8, Math.min(Math.sqrt(m.population) / 250, toNearest * 0.6));
  const areaKm = Math.min(20, Math.max(townKm, toNearest / 3));
  return { town: degrees(m, townKm), area: degrees(m, areaKm) };
}

/** Whether the company of this row is in its municipality's main town: 60 % are, spread evenly over the rows. */
export function inTown(rowid: number): boolean {
  return Math.imul(rowid, 0x9e3779b1) >>> 0 < 0.6 * 2 ** 32;
}
