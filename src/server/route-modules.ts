// Route modules beyond search, one a resource. Each adds its routes under the API prefix.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context.js';

export type RouteModule = (api: FastifyInstance, ctx: ServerContext) => void | Promise<void>;

export const ROUTE_MODULES: readonly RouteModule[] = [];
