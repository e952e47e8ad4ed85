// PostgreSQL's ring boxes (src/store/postgres/search/ring-boxes.ts) hold every point of their
// ring: a point whose distance from the centre (as SQL and haversineKm measure it) is above the
// inner radius and at most the outer one lies in some box. Points are put on the ring by bearing
// and distance, at its edges too, around the country's latitudes, from a metre to 500 km.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EARTH_RADIUS_KM, haversineKm } from '../../src/store/sqlite/search/geo-math.js';
import { ringBoxes } from '../../src/store/postgres/search/ring-boxes.js';

const DEG = Math.PI / 180;

/** The point `km` from (lat, lng) at `bearing` degrees, on the sphere. */
function destination(lat: number, lng: number, km: number, bearing: number): { lat: number; lng: number } {
  const d = km / EARTH_RADIUS_KM;
  const p1 = lat * DEG;
  const t = bearing * DEG;
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(t));
  const l2 = lng * DEG + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return { lat: p2 / DEG, lng: l2 / DEG };
}

describe('PostgreSQL ring boxes', () => {
  it('hold every point of the ring', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 55, max: 69, noNaN: true }),
        fc.double({ min: 11, max: 24, noNaN: true }),
        fc.double({ min: 0, max: 500, noNaN: true }),
        fc.double({ min: 0.000001, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(1, 24, 48),
        (lat, lng, inner, thickness, bearing, where, bands) => {
          const outer = Math.min(500, inner + Math.max(0.001, inner * thickness));
          const boxes = ringBoxes(lat, lng, inner, outer, Math.max(outer - inner, outer / bands), bands);
          // On the ring, or at either edge.
          const km = where < 0.1 ? outer : where > 0.9 ? inner + 1e-9 : inner + (outer - inner) * where;
          const p = destination(lat, lng, km, bearing);
          const d = haversineKm(lat, lng, p.lat, p.lng);
          fc.pre(d > inner && d <= outer);
          const inside = boxes.some((b) => p.lat >= b.minLat && p.lat <= b.maxLat && p.lng >= b.minLng && p.lng <= b.maxLng);
          expect(inside, JSON.stringify({ lat, lng, inner, outer, p, d, bands })).toBe(true);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
