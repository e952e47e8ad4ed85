// Every typed error a command may throw; exit-codes.ts maps each to an exit code.
export { CliError } from './cli-error.js';
export { UsageError } from './usage-error.js';
export { ApiRequestError, type ApiErrorDetails } from './api-request-error.js';
export { InvalidRequestError } from './invalid-request-error.js';
export { AuthError } from './auth-error.js';
export { NotFoundError } from './not-found-error.js';
export { NetworkError } from './network-error.js';
export { CancelError } from './cancel-error.js';
export { ExportFailedError } from './export-failed-error.js';
export { PipeClosedError } from './pipe-closed-error.js';
