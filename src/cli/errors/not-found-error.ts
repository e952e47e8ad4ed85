// HTTP 404: no such company, export or webhook for this account (exit 4).
import { ApiRequestError } from './api-request-error.js';

export class NotFoundError extends ApiRequestError {
  override readonly name = 'NotFoundError';
}
