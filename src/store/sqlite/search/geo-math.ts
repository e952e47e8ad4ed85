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
 * Boxes that together hold every point whose distance from the centre is above `innerKm`
 * and at most `outerKm`, leaving out as much of the inner disc as a few boxes can: the outer
 * box cut into horizontal bands, each band without the middle stretch that lies wholly inside
 * the inner circle. A deep page of a distance sort then reads a ring, not the whole disc.
 */
export function ringBoxes(lat: number, lng: number, innerKm: number, outerKm: number, bands = 12): Box[] {
  // Neighbouring boxes overlap a little: a point on a shared edge is stored by the R*Tree as a
  // float32 interval that may reach over the edge, and must fall wholly inside one of them.
  return ringBoxesExact(lat, lng, innerKm, outerKm, bands).map((b) => ({
    minLat: b.minLat - PAD_DEG,
    maxLat: b.maxLat + PAD_DEG,
    minLng: b.minLng - PAD_DEG,
    maxLng: b.maxLng + PAD_DEG,
  }));
}

function ringBoxesExact(lat: number, lng: number, innerKm: number, outerKm: number, bands: number): Box[] {
  const outer = boundingBox(lat, lng, outerKm);
  // A small inner disc is not worth the extra boxes: read it again and skip its rows.
  if (innerKm < outerKm / 2 || outer.maxLng - outer.minLng >= 360) return [outer];
  const inner = boundingBox(lat, lng, innerKm);
  const boxes: Box[] = [];
  // Outside the inner circle's latitudes, nothing can be left out.
  if (outer.maxLat > inner.maxLat) boxes.push({ ...outer, minLat: inner.maxLat });
  if (outer.minLat < inner.minLat) boxes.push({ ...outer, maxLat: inner.minLat });
  const step = (inner.maxLat - inner.minLat) / bands;
  for (let i = 0; i < bands; i++) {
    const lo = inner.minLat + i * step;
    const hi = i === bands - 1 ? inner.maxLat : lo + step;
    const halfWidth = innerHalfWidth(lat, lng, innerKm, lo, hi);
    if (halfWidth <= 0) {
      boxes.push({ minLat: lo, maxLat: hi, minLng: outer.minLng, maxLng: outer.maxLng });
      continue;
    }
    boxes.push({ minLat: lo, maxLat: hi, minLng: outer.minLng, maxLng: lng - halfWidth });
    boxes.push({ minLat: lo, maxLat: hi, minLng: lng + halfWidth, maxLng: outer.maxLng });
  }
  return boxes;
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
  for (let i = 0; i < 30 && w > 0; i++) {
    const worst = Math.max(haversineKm(lat, lng, lo, lng + w), haversineKm(lat, lng, hi, lng + w));
    if (worst < radiusKm * 0.999) return Math.max(0, w - PAD_DEG);
    w *= 0.97;
  }
  return 0;
}
