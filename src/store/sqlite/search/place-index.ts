// County and municipality share one index, companies_place (county_code, municipality_code,
// status): one B-tree to build where there were two (about a second of seeding), and a county
// with a municipality is one seek (county=01&municipality=2580, disjoint: no entry at all, where
// the municipality's 7,600 entries were read and probed). A county is a prefix of the entries;
// a municipality is found under each county the index holds: a loose scan gives those (a seek
// per county, about 22), and the municipality is then a seek under each. Nothing assumes that a
// municipality lies in its reference county: an imported row may say otherwise.
import type { Sql } from './predicates.js';

export const PLACE_INDEX = 'companies_place';

const list = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Every county code in the index, each found by one seek past the last. */
const EVERY_COUNTY =
  `WITH RECURSIVE k(v) AS (SELECT (SELECT min(county_code) FROM companies INDEXED BY ${PLACE_INDEX}) ` +
  `UNION ALL SELECT (SELECT min(county_code) FROM companies INDEXED BY ${PLACE_INDEX} WHERE county_code > k.v) FROM k WHERE k.v IS NOT NULL) ` +
  'SELECT v FROM k WHERE v IS NOT NULL';

/** A county's entries: its prefix. */
export function countyDriverSql(counties: readonly string[]): Sql {
  return { sql: `c.county_code IN (${list(counties.length)})`, params: [...counties] };
}

/**
 * A municipality's entries: under the counties asked for (the rows must be in one of them
 * anyway), else under every county in the index.
 */
export function municipalityDriverSql(municipalities: readonly string[], counties: readonly string[] | undefined): Sql {
  const under = counties ? countyDriverSql(counties) : { sql: `c.county_code IN (${EVERY_COUNTY})`, params: [] };
  return { sql: `${under.sql} AND c.municipality_code IN (${list(municipalities.length)})`, params: [...under.params, ...municipalities] };
}
