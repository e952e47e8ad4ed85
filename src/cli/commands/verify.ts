// `bolag verify`: checks a saved delivery's Bolag-Signature (exit 0 valid, 1 not).
import { Command, Option } from 'commander';
import { UsageError } from '../errors/index.js';
import type { Factory } from '../factory.js';
import type { VerifyOptions } from './verify/options.js';
import { helpNotes } from '../help-layout.js';
import { repeatable } from '../flags/given-once.js';

const collect = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

export function buildVerifyCommand(f: Factory, runF?: (opts: VerifyOptions) => Promise<void>): Command {
  return new Command('verify')
    .summary('Check the signature of a saved webhook delivery')
    .description(
      'Verify a Bolag-Signature header against the exact body bytes (from --body-file, or stdin) with one or more ' +
        'secrets. Exit 0 when a v1 signature matches and the timestamp is within the tolerance, 1 otherwise. ' +
        'A delivery saved earlier is older than the 300 s default: give --tolerance to check it.',
    )
    .addOption(repeatable(new Option('--secret <whsec>', 'Signing secret (repeatable, or comma-separated; also BOLAG_WEBHOOK_SECRET)').argParser(collect)))
    .addOption(new Option('--signature <header>', 'The Bolag-Signature header value: t=…,v1=…').makeOptionMandatory())
    .addOption(new Option('--body-file <file>', 'The raw body as received (default: stdin)'))
    .addOption(
      new Option('--tolerance <seconds>', 'Largest allowed age of the timestamp').default(300).argParser((v: string) => {
        const n = Number(v);
        if (!Number.isFinite(n) || n < 0) throw new UsageError(`Invalid --tolerance: "${v}" is not a number of seconds.`, { flag: '--tolerance' });
        return n;
      }),
    )
    .addHelpText('after', helpNotes({ examples: ["bolag verify --secret whsec_… --signature 't=1700000000,v1=5f…' --body-file delivery.json --tolerance 86400"] }))
    .action(async (raw: { secret?: string[]; signature: string; bodyFile?: string; tolerance: number }) => {
      const fromEnv = (f.env.BOLAG_WEBHOOK_SECRET ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const secrets = [...new Set([...(raw.secret ?? []), ...fromEnv])];
      if (secrets.length === 0) throw new UsageError('Give the secret with --secret whsec_… (or BOLAG_WEBHOOK_SECRET).', { flag: '--secret' });
      if (raw.bodyFile === undefined && f.io.stdinIsTTY) {
        throw new UsageError('Give the body with --body-file FILE or on stdin.', { flag: '--body-file' });
      }
      const opts: VerifyOptions = { factory: f, secrets, signature: raw.signature, bodyFile: raw.bodyFile, toleranceSeconds: raw.tolerance };
      if (runF) return runF(opts);
      const { verifyRun } = await import('./verify/run.js');
      return verifyRun(opts);
    });
}
