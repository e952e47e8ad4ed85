// Turns validated search filters into a WHERE clause over `companies c` that tests a row in
// hand: what exports and streams use when they read the register in rowid order. Values always
// go in as bound parameters. Searching itself plans further (search/planner.ts); both apply
// the same predicates (search/predicates.ts), so a filter means the same everywhere.
// The text test calls bolag_tier(): registerSearchFunctions(db) must have run on the connection.
import type { SearchFilters } from '../../core/search-params.js';
import { allChecks, buildPredicates, prefixEnd, type Sql } from './search/predicates.js';

export { boundingBox, haversineKm } from './search/geo-math.js';
export { registerSearchFunctions } from './search/functions.js';
export { prefixEnd };

export type SqlFragment = Sql;

export function filterSql(f: SearchFilters): SqlFragment {
  return allChecks(buildPredicates(f));
}
