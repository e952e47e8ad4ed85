// Turns any error into one line on stderr (with the request id when there is one) and its
// exit code. Commander has already printed its own usage errors.
import { CommanderError } from 'commander';
import { ApiRequestError, CliError, PipeClosedError } from './errors/index.js';
import { exitCodeFor, type ExitCode } from './exit-codes.js';
import { terminalText } from './output/terminal-text.js';

export function errorLine(error: unknown): string | undefined {
  if (error instanceof PipeClosedError || error instanceof CommanderError) return undefined;
  if (error instanceof CliError) {
    const details: string[] = [];
    if (error instanceof ApiRequestError) details.push(`HTTP ${error.status} ${error.code}`);
    if (error.requestId) details.push(`request id ${error.requestId}`);
    const suffix = details.length ? ` (${details.join(', ')})` : '';
    const hint = error.hint ? ` — ${error.hint}` : '';
    // The message and the request id may be the server's: shown, never obeyed by the terminal.
    return terminalText(`${error.name === 'CancelError' ? '' : 'error: '}${oneLine(error.message)}${suffix}${hint}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return terminalText(`error: ${oneLine(message)}`);
}

export function reportError(error: unknown, stderr: NodeJS.WritableStream, verbose = false): ExitCode {
  const line = errorLine(error);
  if (line) stderr.write(`${line}\n`);
  // --verbose shows where an unexpected error came from; a usage error commander has reported
  // (a bad flag, a missing argument) is not one.
  // A reader that went away (`| head`) is no error at all.
  const expected = error instanceof CliError || error instanceof CommanderError || error instanceof PipeClosedError;
  if (verbose && error instanceof Error && !expected && error.stack) stderr.write(`${error.stack}\n`);
  return exitCodeFor(error);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
