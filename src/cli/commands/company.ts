// `bolag company ID|ORG_NR`: one company with every field (GET /companies/{id}).
import { Command, Option } from 'commander';
import type { Factory } from '../factory.js';
import { UsageError } from '../errors/index.js';
import { setCompletionValues } from '../completion/values.js';
import type { CompanyOptions } from './company/options.js';
import { helpNotes } from '../help-layout.js';
import { isValidOrgNr, luhnCheckDigit, normalizeOrgNr } from '../../core/orgnr.js';

export function buildCompanyCommand(f: Factory, runF?: (opts: CompanyOptions) => Promise<void>): Command {
  return new Command('company')
    .summary('Show one company')
    .description('Show one company with every field, by its id or organisation number (with or without the hyphen), whatever its status.')
    .argument('<id>', 'Company id or organisation number (NNNNNN-NNNN)')
    .addOption(new Option('--format <format>', 'table (fields down the page) or json; default: table on a terminal, json otherwise').choices(['table', 'json']))
    .addOption(setCompletionValues(new Option('--expand <what>', 'Include the latest financial statement'), ['latest_financials']))
    .addHelpText('after', helpNotes({ examples: ['bolag company 556677-8899', 'bolag company 5566778899 --expand latest_financials --format json'] }))
    .action(async (id: string, raw: { format?: 'table' | 'json'; expand?: string }) => {
      if (raw.expand !== undefined && raw.expand !== 'latest_financials') {
        throw new UsageError(`Invalid --expand: must be latest_financials.`, { flag: '--expand' });
      }
      if (id.trim() === '') throw new UsageError('The company id must not be empty.', { flag: '<id>' });
      // A number whose check digit is wrong is a typo, which no company has: said as such, not
      // "no company" (exit 4) as if the register lacked it.
      const digits = normalizeOrgNr(id.trim());
      if (digits !== null && !isValidOrgNr(digits)) {
        throw new UsageError(`${id.trim()} is not a valid organisation number: its last digit (the check digit) should be ${luhnCheckDigit(digits.slice(0, 9))}.`, { flag: '<id>' });
      }
      const opts: CompanyOptions = {
        factory: f,
        id: id.trim(),
        format: raw.format ?? (f.io.stdoutIsTTY ? 'table' : 'json'),
        expand: raw.expand !== undefined,
      };
      if (runF) return runF(opts);
      const { companyRun } = await import('./company/run.js');
      return companyRun(opts);
    });
}
