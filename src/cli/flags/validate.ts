// Validates parameters with the same zod schema the server uses, before any request, and
// turns the first issue into a UsageError that names the flag the user typed.
import type { z } from 'zod';
import { plainMessage } from '../../core/errors.js';
import { UsageError } from '../errors/index.js';
import { toFlagName } from './derive.js';

export interface ValidateOptions {
  /** How a parameter is named to the user when it is not a flag (`{ q: 'the query [q]' }`). */
  labels?: Record<string, string>;
  /** Every parameter name of the schema, so that messages can name them as flags. */
  params?: readonly string[];
}

export function flagLabel(param: string, labels: Record<string, string> = {}): string {
  return labels[param] ?? `--${toFlagName(param)}`;
}

export function validateParams<S extends z.ZodType>(schema: S, params: Record<string, unknown>, opts: ValidateOptions = {}): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  throw usageErrorFromZod(result.error, opts);
}

export function usageErrorFromZod(error: z.ZodError, opts: ValidateOptions = {}): UsageError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const label = flagLabel(String(issue.keys[0]), opts.labels);
    return new UsageError(`Unknown option ${label}.`, { flag: label });
  }
  const param = issue.path.length > 0 ? String(issue.path[0]) : undefined;
  if (!param) return new UsageError(`Invalid options: ${plainMessage(issue)}.`);
  const label = flagLabel(param, opts.labels);
  // Name other parameters the way the user typed them: "must not be above --revenue-max".
  const known = new Set(opts.params ?? []);
  const message = plainMessage(issue).replace(/\b(above|below|after|before|needs) ([a-z_]+)\b/g, (m, word: string, p: string) =>
    known.has(p) ? `${word} ${flagLabel(p, opts.labels)}` : m,
  );
  // "Invalid --limit: …"; a label that is not a flag reads as a subject: "The query [q]: …".
  const subject = label.startsWith('-') ? `Invalid ${label}` : label.charAt(0).toUpperCase() + label.slice(1);
  return new UsageError(`${subject}: ${message}.`, { flag: label });
}
