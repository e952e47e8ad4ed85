// POST /exports, GET /exports, GET /exports/{id} and the signed download links (spec §4.2, §4.3; contract §2.6).
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

export function exportRoutes(_api: FastifyInstance, _ctx: ServerContext): void {}
