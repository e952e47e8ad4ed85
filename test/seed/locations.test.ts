// Where the generated register puts its companies: around their own municipality's centre, a
// suburb's no farther than its neighbours allow. Exploratory run, 2026-11-29: Lidingö's companies
// spread ~9 km, half of them in central Stockholm, so `--near` Sergels torg with 2 km found
// Lidingö, Solna, Täby and Nacka companies.
import { describe, expect, it } from 'vitest';
import type { Company } from '../../src/core/company.js';
import { MUNICIPALITIES } from '../../src/reference/municipalities.js';
import { generateBatches } from '../../src/seed/generate-batches.js';

const SERGELS_TORG = { lat: 59.3326, lng: 18.0649 };

function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

describe('the generated register’s locations', () => {
  it('keep a municipality’s companies nearer its own centre than any other, and a suburb out of the city’s centre', async () => {
    const companies: Company[] = [];
    for await (const batch of generateBatches('locations', 60_000)) companies.push(...batch);
    const located = companies.filter((c) => c.location !== null);
    let own = 0;
    for (const c of located) {
      const nearest = MUNICIPALITIES.reduce((best, m) => (km(c.location!, m) < km(c.location!, best) ? m : best));
      if (nearest.code === c.municipality_code) own++;
    }
    expect(own / located.length).toBeGreaterThan(0.85);

    const nearSergel = located.filter((c) => km(c.location!, SERGELS_TORG) <= 2);
    expect(nearSergel.length).toBeGreaterThan(100);
    const others = nearSergel.filter((c) => c.municipality !== 'Stockholm');
    expect(others.length / nearSergel.length).toBeLessThan(0.02);
  }, 60_000);
});
