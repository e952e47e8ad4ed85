// The flags of `bolag search` (and the filter flags that `bolag export create` reuses),
// derived from SEARCH_PARAMS / FILTER_PARAMS / OUTPUT_PARAMS of src/core/search-params.ts.
import { FILTER_PARAMS, OUTPUT_PARAMS } from '../../core/search-params.js';
import { COUNTIES } from '../../reference/counties.js';
import { CATEGORIES } from '../../reference/categories.js';
import { MUNICIPALITIES } from '../../reference/municipalities.js';
import { deriveFlags, type ParamFlag } from './derive.js';

/** q is the positional argument of search, not a flag. */
export const POSITIONAL_PARAMS = ['q'] as const;

export function filterFlags(): ParamFlag[] {
  return deriveFlags(FILTER_PARAMS, { skip: POSITIONAL_PARAMS });
}

export function outputFlags(): ParamFlag[] {
  return deriveFlags(OUTPUT_PARAMS);
}

/** What completion offers for the filters whose values are open sets in the schema. */
export function filterCompletionValues(): Record<string, readonly string[]> {
  return {
    county: COUNTIES.map((c) => c.name),
    municipality: MUNICIPALITIES.map((m) => m.name),
    category: CATEGORIES.map((c) => c.slug),
  };
}

/** How the positional query is named in messages. */
export const SEARCH_LABELS: Record<string, string> = { q: 'the query [q]' };
