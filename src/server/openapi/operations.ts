// The operations of the API, for the OpenAPI document. Each later resource adds its paths
// here, next to the schemas it validates with.
import type { z } from 'zod';
import { SEARCH_PARAMS } from '../../core/search-params.js';
import { queryParameter, searchParameters } from './document.js';
import { exportPaths } from './paths-exports.js';
import { webhookPaths } from './paths-webhooks.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const requestIdHeader = { 'Request-Id': { description: 'Also in meta.request_id.', schema: { type: 'string' } } };
const rateLimitHeaders = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this key.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};
export const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...requestIdHeader, ...headers },
  content: { 'application/json': { schema: ref('Error') } },
});

export const errorResponses = {
  '400': errorResponse('Invalid or unknown parameter, or invalid body (error.param names it)'),
  '401': errorResponse('Missing, malformed, unknown or revoked API key', {
    'WWW-Authenticate': { description: 'Bearer realm="bolag" (with error="invalid_token" for a key that is refused).', schema: { type: 'string' } },
  }),
  '403': errorResponse('The key lacks the scope, or the plan lacks the feature'),
  '404': errorResponse('Not found'),
  '429': errorResponse('Rate limited', { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } }, ...rateLimitHeaders }),
  '500': errorResponse('Internal error (quote the request id)'),
  '503': errorResponse('The database is briefly unreachable or busy (service_unavailable); retry after Retry-After', {
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
};

const meta = { type: 'object', required: ['request_id'], properties: { request_id: { type: 'string' } } };

export function envelope(data: unknown, extra: Record<string, unknown> = {}) {
  return {
    type: 'object',
    required: ['data', 'meta', ...Object.keys(extra)],
    properties: { data, meta, ...extra },
  };
}

export function jsonResponse(description: string, schema: unknown) {
  return { description, headers: { ...requestIdHeader, ...rateLimitHeaders }, content: { 'application/json': { schema } } };
}

/** A response that names what it made in a Location header (201, 202). */
export function withLocation(response: ReturnType<typeof jsonResponse>, description: string) {
  return { ...response, headers: { ...response.headers, Location: { description, schema: { type: 'string' } } } };
}

const pagination = {
  type: 'object',
  required: ['limit', 'has_more'],
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, description: 'The page size applied.' },
    has_more: { type: 'boolean', description: 'True when more results follow.' },
    next_cursor: { type: 'string', description: 'Pass as cursor for the next page; present when has_more.' },
    total: { type: 'integer', minimum: 0, description: 'With include_total: the number of matches.' },
    total_estimated: { type: 'boolean', description: 'With include_total: true when counting took over 1 s and total is an estimate.' },
  },
};

/** With `fields`, a record holds id and the fields asked for (and distance_km, latest_financials when asked). */
const companyItem = { anyOf: [ref('Company'), ref('CompanyFields')] };

type Paths = Record<string, Record<string, unknown>>;

/** Path builders of the other resources, each beside its own schemas. */
export const EXTRA_PATHS: (() => Paths)[] = [exportPaths, webhookPaths];
export const EXTRA_COMPONENTS: Record<string, z.ZodType> = {};

export const OPERATIONS = {
  components: EXTRA_COMPONENTS,
  paths(): Paths {
    const paths: Paths = {
      '/companies': {
        get: {
          operationId: 'searchCompanies',
          summary: 'Search companies',
          description: 'Every parameter is optional and all combine (see the description at the top). Unknown parameters are rejected (400 unknown_parameter), as is a parameter given twice.',
          parameters: searchParameters(),
          responses: { '200': jsonResponse('A page of companies', envelope({ type: 'array', items: companyItem }, { pagination })), ...errorResponses },
        },
      },
      '/companies/{id}': {
        get: {
          operationId: 'getCompany',
          summary: 'One company by id or org_nr',
          description: 'By id (c_…) or by organisation number with or without the hyphen; any status.',
          parameters: [
            { name: 'id', in: 'path', required: true, description: 'A company id or an org nr (NNNNNN-NNNN or 10 digits).', schema: { type: 'string' } },
            queryParameter('fields', SEARCH_PARAMS.fields),
            queryParameter('expand', SEARCH_PARAMS.expand),
          ],
          responses: { '200': jsonResponse('The company', envelope(companyItem)), ...errorResponses },
        },
      },
      '/categories': {
        get: {
          operationId: 'listCategories',
          summary: 'The category tree',
          description: 'Every category with its parent (null at the top) and the SNI code prefixes of its own area; a search by category includes its subcategories.',
          responses: { '200': jsonResponse('Categories', envelope({ type: 'array', items: ref('Category') })), ...errorResponses },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApi',
          summary: 'This document',
          description: 'Served without an API key.',
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } } } },
        },
      },
    };
    for (const extra of EXTRA_PATHS) Object.assign(paths, extra());
    return paths;
  },
};
