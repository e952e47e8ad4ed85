// How a POST that took an Idempotency-Key answers (contract §2.6): the identical response, and a
// replay says it is one, with the first request's id as its Request-Id (§2.1: the body's). This
// request's own id is in the log.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredResponse } from '../exports/idempotency.js';

export function sendIdempotent(request: FastifyRequest, reply: FastifyReply, result: StoredResponse, location: string): FastifyReply {
  if (result.replayed) {
    reply.header('Idempotent-Replayed', 'true');
    const original = (result.body as { meta?: { request_id?: unknown } }).meta?.request_id;
    if (typeof original === 'string') {
      reply.header('Request-Id', original);
      request.log.info({ replay_of: original }, 'idempotent replay');
    }
  }
  return reply.code(result.status).header('Location', location).send(result.body);
}
