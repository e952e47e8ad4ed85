// The webhook endpoints of contract §2.7.
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

export function webhookRoutes(_api: FastifyInstance, _ctx: ServerContext): void {}
