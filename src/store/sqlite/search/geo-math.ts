// Distances on the sphere and the boxes that bound them. A box must hold every point within
// the radius (the R*Tree prefilter may only ever keep too much, never too little), so it is
// computed on the sphere and padded for the R*Tree's 32-bit float coordinates.

export const EARTH_RADIUS_KM = 6371.0088;
const DEG = Math.PI / 180;
/** Padding in degrees: far above float32 rounding (about 4e-6 at 60°), far below a metre's worth. */
const PAD_DEG = 1e-4;

export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * DEG;
  const dLng = (lng2 - lng1) * DEG;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * DEG) * Math.cos(lat2 * DEG) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/** The smallest lat/lng box that holds the spherical cap of `radiusKm` around the point. */
export function boundingBox(lat: number, lng: number, radiusKm: number): Box {
  const delta = radiusKm / EARTH_RADIUS_KM;
  const dLat = delta / DEG;
  let dLng = 180;
  if (Math.abs(lat) + dLat < 90) {
    const s = Math.sin(delta) / Math.cos(lat * DEG);
    if (s < 1) dLng = Math.asin(s) / DEG;
  }
  return {
    minLat: Math.max(-90, lat - dLat - PAD_DEG),
    maxLat: Math.min(90, lat + dLat + PAD_DEG),
    minLng: dLng >= 180 ? -180 : lng - dLng - PAD_DEG,
    maxLng: dLng >= 180 ? 180 : lng + dLng + PAD_DEG,
  };
}

/**
 * Boxes that together hold every point whose distance from the centre is above `innerKm` and
 * at most `outerKm`, and little else: the outer circle's latitudes cut into bands of about
 * `bandKm`, each band as wide as the circle reaches within it (on the sphere), without the
 * middle stretch that lies wholly inside the inner circle. A deep page of a distance sort then
 * reads a thin ring, not the disc inside it. Neighbouring boxes overlap a little: a point on a
 * shared edge is stored by the R*Tree as a float32 interval that may reach over the edge.
 */
export function ringBoxes(lat: number, lng: number, innerKm: number, outerKm: number, bandKm: number, maxBands = 128): Box[] {
  const outer = boundingBox(lat, lng, outerKm);
  if (outer.maxLng - outer.minLng >= 360) return [outer];
  const span = outer.maxLat - outer.minLat;
  const bands = Math.max(1, Math.min(maxBands, Math.ceil((span * 111.195) / Math.max(bandKm, 1e-3))));
  const step = span / bands;
  const boxes: Box[] = [];
  for (let i = 0; i < bands; i++) {
    const lo = outer.minLat + i * step;
    const hi = i === bands - 1 ? outer.maxLat : lo + step;
    const reach = outerHalfWidth(lat, outerKm, lo, hi);
    if (reach < 0) continue;
    const wo = reach * 1.0001 + PAD_DEG;
    const wi = innerKm > 0 ? innerHalfWidth(lat, lng, innerKm, lo, hi) : 0;
    const band = { minLat: lo - PAD_DEG, maxLat: hi + PAD_DEG };
    if (wi <= 0) boxes.push({ ...band, minLng: lng - wo, maxLng: lng + wo });
    else if (wi < wo) {
      boxes.push({ ...band, minLng: lng - wo, maxLng: lng - wi + PAD_DEG });
      boxes.push({ ...band, minLng: lng + wi - PAD_DEG, maxLng: lng + wo });
    }
  }
  return boxes;
}

/**
 * How far in degrees of longitude the spherical cap of `radiusKm` reaches within the band of
 * latitudes [lo, hi], or -1 when it does not reach the band.
 */
function outerHalfWidth(lat: number, radiusKm: number, lo: number, hi: number): number {
  const delta = radiusKm / EARTH_RADIUS_KM;
  const a = Math.max(lo, lat - delta / DEG);
  const b = Math.min(hi, lat + delta / DEG);
  if (a > b) return -1;
  const phi0 = lat * DEG;
  const reachAt = (phi: number) => {
    const arg = (Math.cos(delta) - Math.sin(phi0) * Math.sin(phi * DEG)) / (Math.cos(phi0) * Math.cos(phi * DEG));
    return arg >= 1 ? 0 : arg <= -1 ? 180 : Math.acos(arg) / DEG;
  };
  let best = Math.max(reachAt(a), reachAt(b));
  // The cap is widest at the latitude where sin φ = sin φ0 / cos δ.
  const s = Math.sin(phi0) / Math.cos(delta);
  if (Math.abs(s) < 1) {
    const widest = Math.asin(s) / DEG;
    if (widest > a && widest < b) best = Math.max(best, reachAt(widest));
  }
  return best;
}

/**
 * Half the width in degrees of longitude of a stretch, centred on `lng`, in which every point
 * of the band [lo, hi] is strictly nearer than `radiusKm`: checked on the sphere at the band's
 * corners (the farthest points of such a stretch), shrunk until it holds.
 */
function innerHalfWidth(lat: number, lng: number, radiusKm: number, lo: number, hi: number): number {
  const farLat = Math.abs(lo - lat) > Math.abs(hi - lat) ? lo : hi;
  const dy = haversineKm(lat, lng, farLat, lng);
  if (dy >= radiusKm) return 0;
  const cosMax = Math.max(Math.cos(lo * DEG), Math.cos(hi * DEG), lo < 0 && hi > 0 ? 1 : 0);
  let w = Math.sqrt(radiusKm * radiusKm - dy * dy) / (111.195 * Math.max(cosMax, 1e-6));
  for (let i = 0; i < 60 && w > 0; i++) {
    const worst = Math.max(haversineKm(lat, lng, lo, lng + w), haversineKm(lat, lng, hi, lng + w));
    if (worst < radiusKm * 0.999) return Math.max(0, w - PAD_DEG);
    w *= 0.97;
  }
  return 0;
}
