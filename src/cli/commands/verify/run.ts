// `bolag verify`: the reference verifier (src/webhooks/signature.ts) over the exact bytes given.
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { VerifyOptions } from './options.js';
import { CliError, UsageError } from '../../errors/index.js';
import { verifySignature } from '../../../webhooks/signature.js';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

const REASONS = {
  malformed: 'the signature header is malformed (expected t=<seconds>,v1=<hex>[,v1=…])',
  no_matching_signature: 'no v1 signature matches this body with the given secret(s)',
  timestamp_out_of_tolerance: 'the signature matches, but its timestamp is outside the tolerance',
} as const;

export async function verifyRun(opts: VerifyOptions): Promise<void> {
  const { factory } = opts;
  let body: Buffer;
  try {
    body = opts.bodyFile !== undefined ? await readFile(opts.bodyFile) : await readAll(factory.io.stdin);
  } catch (e) {
    throw new UsageError(`Cannot read --body-file ${opts.bodyFile}: ${(e as Error).message}`, { flag: '--body-file' });
  }
  const result = verifySignature({ rawBody: body, header: opts.signature, secrets: opts.secrets, toleranceSeconds: opts.toleranceSeconds });
  if (!result.ok) {
    let message = `Invalid: ${REASONS[result.reason]}.`;
    if (result.reason === 'timestamp_out_of_tolerance') {
      const t = Number(/(?:^|,)\s*t=(\d+)/.exec(opts.signature)?.[1]);
      const age = Math.round(Date.now() / 1000 - t);
      const when = age >= 0 ? `was made ${age} s ago` : `is dated ${-age} s in the future`;
      message = `Invalid: the signature matches, but it ${when} (tolerance ${opts.toleranceSeconds} s).`;
      // Dated ahead: the sender's clock (or this machine's) is wrong, which no tolerance for age mends.
      throw new CliError(message, { hint: age >= 0 ? 'give --tolerance to check an older delivery' : "check the clocks of this machine and the sender's" });
    }
    throw new CliError(message);
  }
  factory.notice(`Valid: signed at ${new Date(result.t * 1000).toISOString()}.`);
}
