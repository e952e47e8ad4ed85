// HTTP 401 or 403: a missing, unknown or revoked key, a missing scope or plan (exit 3).
import { ApiRequestError } from './api-request-error.js';

export class AuthError extends ApiRequestError {
  override readonly name = 'AuthError';
}
