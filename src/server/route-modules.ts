// Route modules beyond search, one a resource. Each adds its routes under the API prefix.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../app/context.js';
import { exportRoutes } from './routes/exports.js';
import { webhookRoutes } from './routes/webhooks.js';

export type RouteModule = (api: FastifyInstance, ctx: ServerContext) => void | Promise<void>;

export const ROUTE_MODULES: readonly RouteModule[] = [exportRoutes, webhookRoutes];
