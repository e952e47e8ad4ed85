// An export ended in status failed, or its download did not match its checksum (exit 5).
import { CliError } from './cli-error.js';

export class ExportFailedError extends CliError {
  readonly exportId?: string;

  constructor(message: string, opts: { exportId?: string; requestId?: string; hint?: string } = {}) {
    super(message, { requestId: opts.requestId, hint: opts.hint });
    this.name = 'ExportFailedError';
    this.exportId = opts.exportId;
  }
}
