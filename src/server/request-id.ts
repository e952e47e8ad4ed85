// Request ids: one for every answer, also those written before Fastify has a request object
// (client errors at the HTTP-parser level), so every answer can be quoted to an operator.
import { randomBytes } from 'node:crypto';

export function newRequestId(): string {
  return `req_${randomBytes(9).toString('base64url')}`;
}
