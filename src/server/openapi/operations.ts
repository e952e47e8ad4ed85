// The operations of the API, for the OpenAPI document. Each later resource adds its paths
// here, next to the schemas it validates with.
import type { z } from 'zod';
import { searchParameters } from './document.js';
import { exportPaths } from './paths-exports.js';
import { webhookPaths } from './paths-webhooks.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const errorResponses = {
  '400': { description: 'Invalid parameter or body', content: { 'application/json': { schema: ref('Error') } } },
  '401': { description: 'Missing or invalid API key', content: { 'application/json': { schema: ref('Error') } } },
  '403': { description: 'Scope or plan missing', content: { 'application/json': { schema: ref('Error') } } },
  '404': { description: 'Not found', content: { 'application/json': { schema: ref('Error') } } },
  '429': { description: 'Rate limited', content: { 'application/json': { schema: ref('Error') } } },
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
  return { description, content: { 'application/json': { schema } } };
}

const pagination = {
  type: 'object',
  required: ['limit', 'has_more'],
  properties: {
    limit: { type: 'integer' },
    has_more: { type: 'boolean' },
    next_cursor: { type: 'string' },
    total: { type: 'integer' },
    total_estimated: { type: 'boolean' },
  },
};

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
          parameters: searchParameters(),
          responses: { '200': jsonResponse('A page of companies', envelope({ type: 'array', items: ref('Company') }, { pagination })), ...errorResponses },
        },
      },
      '/companies/{id}': {
        get: {
          operationId: 'getCompany',
          summary: 'One company by id or org_nr',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'fields', in: 'query', schema: { type: 'string' } },
            { name: 'expand', in: 'query', schema: { type: 'string', enum: ['latest_financials'] } },
          ],
          responses: { '200': jsonResponse('The company', envelope(ref('Company'))), ...errorResponses },
        },
      },
      '/categories': {
        get: {
          operationId: 'listCategories',
          summary: 'The category tree',
          responses: { '200': jsonResponse('Categories', envelope({ type: 'array', items: ref('Category') })), ...errorResponses },
        },
      },
      '/openapi.json': {
        get: { operationId: 'openApi', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1' } } },
      },
    };
    for (const extra of EXTRA_PATHS) Object.assign(paths, extra());
    return paths;
  },
};
