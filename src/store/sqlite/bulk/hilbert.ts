// The order in which the packed spatial index (packed-rtree.ts) lays points into its leaves.
// Along a Hilbert curve, neighbours in the order are neighbours on the map, so a leaf covers a
// small box and boxes barely overlap. (When points were still inserted one by one, this order
// also made the build cheapest: 8.2 CPU-s on the 1.2-million register against 11.6 s by
// municipality, and box queries 8 % faster.)

const SIDE = 1 << 16;
/** A box around Sweden, with margin; points outside are clamped to its edge. */
const LAT = { min: 54, span: 16 };
const LNG = { min: 10, span: 16 };

/** The position of (lat, lng) along a Hilbert curve over Sweden, 2^16 cells a side. */
export function hilbertOrder(lat: number, lng: number): number {
  let x = cell((lng - LNG.min) / LNG.span);
  let y = cell((lat - LAT.min) / LAT.span);
  let d = 0;
  for (let s = SIDE >> 1; s > 0; s >>= 1) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

function cell(share: number): number {
  return Math.min(SIDE - 1, Math.max(0, Math.floor(share * SIDE)));
}
