// The one place where errors become exit codes (contract §3).
import { CommanderError } from 'commander';
import {
  AuthError,
  CancelError,
  ExportFailedError,
  InvalidRequestError,
  NotFoundError,
  PipeClosedError,
  UsageError,
} from './errors/index.js';
import { NotARegisterError } from '../store/not-a-register.js';
import { FolderError } from '../core/make-folder.js';

export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  exportFailed: 5,
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass = abstract new (...args: any[]) => Error;

/** First match wins; anything else is a failure (1). */
const TABLE: ReadonlyArray<readonly [ErrorClass, ExitCode]> = [
  [PipeClosedError, EXIT.ok],
  [UsageError, EXIT.usage],
  [NotARegisterError, EXIT.usage],
  [FolderError, EXIT.usage],
  [InvalidRequestError, EXIT.usage],
  [AuthError, EXIT.auth],
  [NotFoundError, EXIT.notFound],
  [ExportFailedError, EXIT.exportFailed],
  [CancelError, EXIT.interrupted],
];

/** Commander's own errors: help and version are success, everything else a usage error. */
const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version', 'commander.executeSubCommandAsync']);

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof CommanderError) {
    // `bolag` or `bolag db` without a command: commander shows the help on stderr with exit code
    // 1. A script that forgot the command must not read that as success, nor as a failed run.
    if (error.code === 'commander.help') return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return COMMANDER_OK.has(error.code) ? EXIT.ok : EXIT.usage;
  }
  for (const [cls, code] of TABLE) if (error instanceof cls) return code;
  return EXIT.failure;
}
