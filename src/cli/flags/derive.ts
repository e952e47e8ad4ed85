// One command-line flag per API parameter, derived from the zod schemas of src/core: the name
// in kebab-case, booleans as --x / --no-x, the value set of enum parameters (for help and
// completion), the description from the schema's metadata.
import type { z } from 'zod';
import { isListParam } from '../../core/param-types.js';

export type FlagKind = 'boolean' | 'number' | 'date' | 'enum' | 'text';

export interface ParamFlag {
  /** The API parameter, snake_case (`revenue_min`). */
  param: string;
  /** The flag without dashes, kebab-case (`revenue-min`). */
  name: string;
  kind: FlagKind;
  description: string;
  /** Closed value set (enum parameters). */
  values?: readonly string[];
  /** How the value is shown in help: `<n>`, `<date>`, `<lat,lng>`, … */
  valueName: string;
  /** A list parameter: a repeated flag adds to it (`--county 01 --county 14`). */
  list?: boolean;
}

export const toFlagName = (param: string) => param.replaceAll('_', '-');
/** commander's attribute name for a flag (`revenue-min` → `revenueMin`). */
export const attributeName = (flag: string) => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const VALUE_NAMES: Record<string, string> = {
  near: '<lat,lng>',
  category: '<slugs>',
  sni: '<codes>',
  county: '<names|codes>',
  municipality: '<names|codes>',
  city: '<cities>',
  postal_code: '<prefixes>',
  cursor: '<cursor>',
  fields: '<fields>',
  sort: '<key>',
  limit: '<n>',
  radius_km: '<km>',
  legal_form: '<forms>',
  status: '<statuses>',
  website_status: '<statuses>',
  employees_class: '<classes>',
  trend: '<trends>',
  expand: '<what>',
};

interface Meta {
  description?: string;
  enum?: string[];
  format?: string;
}

export function deriveFlag(param: string, schema: z.ZodType): ParamFlag {
  const meta = ((schema as unknown as { meta(): Meta | undefined }).meta() ?? {}) as Meta;
  const description = meta.description ?? '';
  const name = toFlagName(param);
  if (schema.safeParse(true).success) return { param, name, kind: 'boolean', description, valueName: '' };
  const list = isListParam(schema) ? { list: true } : {};
  if (meta.enum) {
    return { param, name, kind: 'enum', description, values: meta.enum, valueName: VALUE_NAMES[param] ?? '<value>', ...list };
  }
  if (meta.format === 'date') return { param, name, kind: 'date', description, valueName: '<date>' };
  if (schema.safeParse(1).success) return { param, name, kind: 'number', description, valueName: VALUE_NAMES[param] ?? '<n>' };
  return { param, name, kind: 'text', description, valueName: VALUE_NAMES[param] ?? '<value>', ...list };
}

/** Flags for every parameter of a schema map (SEARCH_PARAMS, FILTER_PARAMS, …), minus `skip`. */
export function deriveFlags(params: Record<string, z.ZodType>, opts: { skip?: readonly string[] } = {}): ParamFlag[] {
  return Object.entries(params)
    .filter(([param]) => !opts.skip?.includes(param))
    .map(([param, schema]) => deriveFlag(param, schema));
}
