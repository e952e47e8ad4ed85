// Assembles the OpenAPI document from the core schemas and the operation list. Response
// bodies come from the core zod schemas (z.toJSONSchema); query parameters from the same
// parameter builders the server validates with, described as a query string carries them
// (a comma-separated list is `style: form, explode: false`).
import { z } from 'zod';
import { CategorySchema, COMPANY_FIELDS, CompanySchema } from '../../core/company.js';
import { ErrorBodySchema } from '../../core/errors.js';
import { CONDITIONAL_FIELDS, SEARCH_PARAMS } from '../../core/search-params.js';
import { LIMITS } from '../../core/values.js';
import { OPERATIONS } from './operations.js';

type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
const toInputSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;

export const COMPONENT_SCHEMAS: Record<string, z.ZodType> = {
  Company: CompanySchema,
  /** A record when `fields` is given: id and the fields asked for. */
  CompanyFields: CompanySchema.partial().required({ id: true }),
  Category: CategorySchema,
  Error: ErrorBodySchema,
};

/** Bounds that the builders check in code (not visible to toJSONSchema), from the same constants. */
const BOUNDS: Record<string, Json> = {
  limit: { minimum: LIMITS.limitMin, maximum: LIMITS.limitMax, default: LIMITS.limitDefault },
  radius_km: { exclusiveMinimum: 0, maximum: LIMITS.radiusMaxKm, default: LIMITS.radiusDefaultKm },
  q: { minLength: 1, maxLength: LIMITS.qMaxLength },
  cursor: { maxLength: 2000 },
  equity_ratio_min: { maximum: 1 },
};

/**
 * The schema of a query parameter as it travels in a query string, from the JSON Schema of
 * the zod builder's input: lists (string or array) become comma-separated arrays, booleans
 * and numbers (which also accept JSON values in export bodies) their plain types.
 */
export function queryParameter(name: string, schema: z.ZodType, required = false) {
  const json = toInputSchema(schema);
  const { description, $schema: _s, ...rest } = json;
  const anyOf = (rest.anyOf as Json[] | undefined) ?? [];
  // A union of plain types comes as anyOf, or as one type array (["boolean", "string"]).
  const types = [...anyOf.map((s) => s.type), ...(Array.isArray(rest.type) ? rest.type : [])];
  let out: Json;
  let list = false;
  if (types.includes('array')) {
    list = true;
    const values = json.enum as string[] | undefined;
    const single = name === 'sort' || name === 'expand';
    out = single ? { type: 'string', ...(values ? { enum: values } : {}) } : { type: 'array', items: { type: 'string', ...(values ? { enum: values } : {}) } };
    list = !single;
  } else if (types.includes('boolean')) out = { type: 'boolean' };
  else if (types.includes('number')) out = { type: name === 'limit' ? 'integer' : 'number' };
  else {
    const { anyOf: _a, ...plain } = rest;
    out = plain;
  }
  if (name === 'fields') out = { type: 'array', items: { type: 'string', enum: [...COMPANY_FIELDS, ...Object.keys(CONDITIONAL_FIELDS)] } };
  if (name === 'near') out = { type: 'string', pattern: '^\\s*-?\\d+(\\.\\d+)?\\s*,\\s*-?\\d+(\\.\\d+)?\\s*$' };
  Object.assign(out, BOUNDS[name] ?? {});
  return { name, in: 'query', required, description, schema: out, ...(list ? { style: 'form', explode: false } : {}) };
}

export function searchParameters() {
  return Object.entries(SEARCH_PARAMS).map(([name, schema]) => queryParameter(name, schema));
}

const DESCRIPTION = `Search, export and watch the Swedish company register.

Every request carries \`Authorization: Bearer <key>\` (scopes: companies:read, exports:create, exports:read, webhooks:manage). Every response has a \`Request-Id\` header, and every JSON body a \`meta.request_id\` with the same value. Errors are \`{ error: { code, message, param? }, meta }\`.

GET /companies: filters combine with AND; a comma-separated value is an OR inside its filter. Text filters match case-insensitively and without diacritics. \`status\` defaults to \`aktiv\` (\`all\` for every status). Sorts: \`name\` (default without q), \`relevance\` (default with q), \`distance\` (needs near), \`revenue\`, \`profit\`, \`registration_date\`, \`equity_ratio\`, \`revenue_growth\`, \`employees_class\`; a leading \`-\` is descending; nulls come last in both directions and ties are broken by id. Relevance ranks, best first: names that begin with the query (by name), names or org nrs holding every word exactly, the same with the last word as a prefix, then matches through the industry; ties by id. Pages are keyset cursors: \`next_cursor\` is signed and bound to the query (only \`limit\` may change), and page 1,000 costs what page 1 costs. \`include_total=true\` adds \`pagination.total\`, counted exactly when that takes under 1 s and estimated otherwise (\`pagination.total_estimated: true\`).

Companies imported from Bolagsverket's and SCB's open bulk files (\`bolag db import --source bolagsverket|scb\`) carry what those files hold: \`location\` is the centre of the municipality (approximate, never the address itself); \`municipality\` and \`county\` are derived from the postal code's first three digits (approximate where a postal area straddles a border); \`sni_codes\` from SCB are SNI 2025 codes as SCB gives them (the generated register's are SNI 2007); \`revenue\`, \`profit\`, \`equity_ratio\`, \`revenue_growth\` and \`website\` are null, \`has_financials\` false, \`employees_class\` \`0\`, \`trend\` and \`website_status\` \`okänd\`: the files carry no figures, websites or head counts. A company without a Swedish postal address has empty \`address\` fields, \`municipality_code\` and \`county_code\`, and no \`location\`. The business description in Bolagsverket's file is not a field of the record but is searched by \`q\` (as industry).`;

/** Groups for readers of the reference (GET /docs), by the first segment of the path. */
const TAGS = [
  { name: 'Companies', description: 'Search the register, read one company, list the categories.', paths: ['companies', 'categories'] },
  { name: 'Exports', description: 'Asynchronous CSV or JSONL exports of a search, downloaded through signed links.', paths: ['exports'] },
  { name: 'Webhooks', description: 'Signed event deliveries to your HTTPS endpoint.', paths: ['webhooks'] },
  { name: 'Reference', description: 'This document.', paths: ['openapi.json'] },
];

function tagged(paths: Record<string, Record<string, Json>>): Record<string, Record<string, Json>> {
  for (const [path, operations] of Object.entries(paths)) {
    const tag = TAGS.find((t) => t.paths.includes(path.split('/')[1]))?.name;
    if (tag) for (const op of Object.values(operations)) op.tags ??= [tag];
  }
  return paths;
}

export function buildOpenApiDocument(serverUrl: string) {
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries({ ...COMPONENT_SCHEMAS, ...OPERATIONS.components })) {
    const { $schema: _s, ...json } = toSchema(schema) as Json;
    schemas[name] = json;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bolag Company Data Service', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas,
    },
    tags: TAGS.map(({ name, description }) => ({ name, description })),
    paths: tagged(OPERATIONS.paths() as Record<string, Record<string, Json>>),
  };
}
