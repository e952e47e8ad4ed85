// The boxes of a ring for PostgreSQL's spatial index: the ring's latitudes cut into bands, each
// band's box as wide as the outer circle reaches within it, without the middle stretch that the
// inner circle covers across the whole band. As geo-math.ts ringBoxes, but for float8 points:
// no padding for an R*Tree's float32 coordinates (about 11 m, which made a thin ring's boxes
// taller than the ring is wide), and the inner circle's reach taken exactly (at the band's
// edges: within a band it is least at one of them) instead of shrunk in 3 % steps until it
// held. A deep page of a distance sort around Stockholm read 4,357 rows for the 78 in its ring.
import { boundingBox, type Box, EARTH_RADIUS_KM } from '../../sqlite/search/geo-math.js';

const DEG = Math.PI / 180;
/** Relative and absolute (degrees) slack: far above float8 rounding, far below a millimetre. */
const SLACK = 1e-9;
/**
 * The circles are taken a metre wider (outer) and narrower (inner) than asked: near a circle's
 * top the reach comes from an arc cosine of a number close to 1, good to millimetres, not to
 * float8 rounding. A metre is nothing to the rows read.
 */
const MARGIN_KM = 0.001;

/**
 * How far in degrees of longitude the circle of `radiusKm` around `lat` reaches at latitude
 * `phi`, or -1 when it does not reach that latitude.
 */
function reachAt(lat: number, radiusKm: number, phi: number): number {
  const delta = radiusKm / EARTH_RADIUS_KM;
  const arg = (Math.cos(delta) - Math.sin(lat * DEG) * Math.sin(phi * DEG)) / (Math.cos(lat * DEG) * Math.cos(phi * DEG));
  if (arg > 1) return -1;
  return arg <= -1 ? 180 : Math.acos(arg) / DEG;
}

/** The circle's widest reach within the latitudes [lo, hi], or -1 when it does not reach them. */
function outerReach(lat: number, radiusKm: number, lo: number, hi: number): number {
  const delta = radiusKm / EARTH_RADIUS_KM;
  const a = Math.max(lo, lat - delta / DEG);
  const b = Math.min(hi, lat + delta / DEG);
  if (a > b) return -1;
  let best = Math.max(0, reachAt(lat, radiusKm, a), reachAt(lat, radiusKm, b));
  // The circle is widest where sin φ = sin φ0 / cos δ.
  const s = Math.sin(lat * DEG) / Math.cos(delta);
  if (Math.abs(s) < 1) {
    const widest = Math.asin(s) / DEG;
    if (widest > a && widest < b) best = Math.max(best, reachAt(lat, radiusKm, widest));
  }
  return best;
}

/**
 * How far the circle reaches across the whole band [lo, hi]: 0 when it misses a latitude of it.
 * The reach rises and then falls with the latitude, so within the band it is least at an edge.
 */
function innerReach(lat: number, radiusKm: number, lo: number, hi: number): number {
  const a = reachAt(lat, radiusKm, lo);
  const b = reachAt(lat, radiusKm, hi);
  return a <= 0 || b <= 0 ? 0 : Math.min(a, b);
}

/** Boxes holding every point whose distance from the centre is above `innerKm` and at most `outerKm`. */
export function ringBoxes(lat: number, lng: number, innerKm: number, outerKm: number, bandKm: number, maxBands: number): Box[] {
  const outerR = outerKm + MARGIN_KM;
  const innerR = innerKm - MARGIN_KM;
  const outer = boundingBox(lat, lng, outerR);
  if (outer.maxLng - outer.minLng >= 360) return [outer];
  const span = outer.maxLat - outer.minLat;
  const bands = Math.max(1, Math.min(maxBands, Math.ceil((span * 111.195) / Math.max(bandKm, 1e-3))));
  const step = span / bands;
  const boxes: Box[] = [];
  for (let i = 0; i < bands; i++) {
    const lo = outer.minLat + i * step;
    const hi = i === bands - 1 ? outer.maxLat : lo + step;
    const reach = outerReach(lat, outerR, lo, hi);
    if (reach < 0) continue;
    const wo = reach * (1 + SLACK) + SLACK;
    const wi = innerR > 0 ? innerReach(lat, innerR, lo, hi) * (1 - SLACK) - SLACK : 0;
    const band = { minLat: lo, maxLat: hi };
    if (wi <= 0) boxes.push({ ...band, minLng: lng - wo, maxLng: lng + wo });
    else if (wi < wo) {
      boxes.push({ ...band, minLng: lng - wo, maxLng: lng - wi });
      boxes.push({ ...band, minLng: lng + wi, maxLng: lng + wo });
    }
  }
  return boxes;
}
