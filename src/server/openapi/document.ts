// Assembles the OpenAPI document from the core schemas and the operation list.
import { z } from 'zod';
import { CategorySchema, CompanySchema } from '../../core/company.js';
import { ErrorBodySchema } from '../../core/errors.js';
import { SEARCH_PARAMS } from '../../core/search-params.js';
import { OPERATIONS } from './operations.js';

const toSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' });
const toInputSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

export const COMPONENT_SCHEMAS: Record<string, z.ZodType> = {
  Company: CompanySchema,
  Category: CategorySchema,
  Error: ErrorBodySchema,
};

export function searchParameters() {
  return Object.entries(SEARCH_PARAMS).map(([name, schema]) => {
    const json = toInputSchema(schema) as Record<string, unknown>;
    const { description, $schema: _s, ...rest } = json;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

export function buildOpenApiDocument(serverUrl: string) {
  const schemas: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries({ ...COMPONENT_SCHEMAS, ...OPERATIONS.components })) {
    const { $schema: _s, ...json } = toSchema(schema) as Record<string, unknown>;
    schemas[name] = json;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Bolag Company Data Service', version: '1.0.0', description: 'Search, export and watch the Swedish company register.' },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas,
    },
    paths: OPERATIONS.paths(),
  };
}
