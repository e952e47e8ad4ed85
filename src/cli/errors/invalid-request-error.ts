// HTTP 400: the server rejected a parameter or body (exit 2, like a usage error).
import { ApiRequestError } from './api-request-error.js';

export class InvalidRequestError extends ApiRequestError {
  override readonly name = 'InvalidRequestError';
}
