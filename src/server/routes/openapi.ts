// GET /openapi.json: the OpenAPI 3.1 document, generated from the core zod schemas so it
// cannot drift from what the server validates and returns.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../app/context.js';
import { buildOpenApiDocument } from '../openapi/document.js';

export function openApiRoutes(app: FastifyInstance, ctx: ServerContext): void {
  let cached: unknown;
  app.get('/openapi.json', async () => {
    cached ??= buildOpenApiDocument(ctx.baseUrl());
    return cached;
  });
}
