// Export request and record (spec §2.3, §4.2; contract §2.6).
import { z } from 'zod';
import { FILTER_PARAMS } from './search-params.js';
import { COMPANY_FIELDS } from './company.js';
import { EXPORT_FORMATS, EXPORT_STATUSES } from './values.js';
import { fold } from './text.js';

export const ExportRequestSchema = z.strictObject({
  format: z
    .string({ error: 'must be csv or jsonl' })
    .transform((v, ctx) => {
      const f = fold(v);
      if (!(EXPORT_FORMATS as readonly string[]).includes(f)) {
        ctx.addIssue({ code: 'custom', message: 'must be csv or jsonl' });
        return z.NEVER;
      }
      return f as (typeof EXPORT_FORMATS)[number];
    })
    .default('csv'),
  filters: z.strictObject(FILTER_PARAMS).partial().default({}),
  // Each named once, as search's `fields` (a field twice was a CSV column twice).
  fields: z
    .array(z.enum(COMPANY_FIELDS), { error: `must be an array of company fields` })
    .min(1)
    .transform((fields) => [...new Set(fields)])
    .optional(),
});
export type ExportRequest = z.output<typeof ExportRequestSchema>;

export const ExportFileSchema = z.object({
  /** The file name a download gets (`exp_….csv`, or `exp_…-part-002.csv` for several parts). */
  name: z.string(),
  url: z.string(),
  rows: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
});

export const ExportSchema = z.object({
  id: z.string(),
  status: z.enum(EXPORT_STATUSES),
  format: z.enum(EXPORT_FORMATS),
  filters: z.record(z.string(), z.unknown()),
  fields: z.array(z.string()).nullable(),
  estimated_rows: z.number().int(),
  row_count: z.number().int().nullable().meta({ description: 'Rows written: so far while running, all of them once completed; null while queued and when failed.' }),
  files: z.array(ExportFileSchema),
  download_url: z.string().nullable(),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable().meta({ description: 'When the export settled: completed, or failed (then see error).' }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type ExportRecord = z.infer<typeof ExportSchema>;
