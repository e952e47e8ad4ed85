// Webhook request and record (spec §2.4, §4.4; contract §2.7).
import { z } from 'zod';
import { CONTROL_CHARACTER } from './text.js';
import { EVENT_TYPES, WEBHOOK_STATUSES } from './values.js';

/** Keys a webhook filter accepts (contract §2.7); values follow search semantics. */
export const WEBHOOK_FILTER_KEYS = [
  'county',
  'municipality',
  'city',
  'postal_code',
  'legal_form',
  'status',
  'category',
  'sni',
  'employees_class',
  'org_nr',
] as const;

const filtersSchema = z.partialRecord(z.enum(WEBHOOK_FILTER_KEYS), z.array(z.string().min(1).max(200)).min(1).max(500));

// A URL with a control character is refused as given (the URL parser drops or escapes some, and
// PostgreSQL's text cannot hold NUL).
const urlText = z
  .string()
  .max(2048)
  .refine((url) => !CONTROL_CHARACTER.test(url), 'must not contain control characters');

export const WebhookCreateSchema = z.strictObject({
  url: urlText,
  events: z.array(z.enum(EVENT_TYPES)).min(1),
  filters: filtersSchema.default({}),
});

export const WebhookUpdateSchema = z.strictObject({
  url: urlText.optional(),
  events: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
  filters: filtersSchema.optional(),
  /** Setting status to active re-enables a failing or disabled webhook. */
  status: z.literal('active').optional(),
});

export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  filters: z.record(z.string(), z.array(z.string())),
  status: z.enum(WEBHOOK_STATUSES),
  created_at: z.string(),
  failing_since: z.string().nullable(),
  // A pattern, not startsWith: that one is written into the OpenAPI document as `format: starts_with`, no format there is.
  secret: z.string().regex(/^whsec_/).optional(),
});
export type WebhookRecord = z.infer<typeof WebhookSchema>;

export const DeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});
