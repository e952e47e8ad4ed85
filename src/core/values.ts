// The closed value sets of the register (contract §2.3). Swedish, as the spec's observed values are.

export const STATUSES = ['aktiv', 'vilande', 'likvidation', 'konkurs', 'rekonstruktion', 'avregistrerad'] as const;
export type Status = (typeof STATUSES)[number];

export const LEGAL_FORMS = [
  'aktiebolag',
  'enskild_näringsidkare',
  'handelsbolag',
  'kommanditbolag',
  'ekonomisk_förening',
  'bostadsrättsförening',
  'ideell_förening',
  'stiftelse',
  'filial',
] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

/** Short forms, as a table's narrow column shows them and as a person types them (AB, HB). */
export const LEGAL_FORM_ABBREVIATIONS: Record<LegalForm, string> = {
  aktiebolag: 'AB',
  enskild_näringsidkare: 'EF',
  handelsbolag: 'HB',
  kommanditbolag: 'KB',
  ekonomisk_förening: 'EK',
  bostadsrättsförening: 'BRF',
  ideell_förening: 'IF',
  stiftelse: 'SF',
  filial: 'FIL',
};

export const WEBSITE_STATUSES = ['har_hemsida', 'ingen_hemsida', 'okänd'] as const;
export type WebsiteStatus = (typeof WEBSITE_STATUSES)[number];

export const TRENDS = ['växande', 'stabil', 'minskande', 'okänd'] as const;
export type Trend = (typeof TRENDS)[number];

/** SCB's employee size classes, smallest first; the order is the sort order of `employees_class`. */
export const EMPLOYEES_CLASSES = [
  '0',
  '1-4',
  '5-9',
  '10-19',
  '20-49',
  '50-99',
  '100-199',
  '200-499',
  '500-999',
  '1000-1499',
  '1500-1999',
  '2000-2999',
  '3000-3999',
  '4000-4999',
  '5000-9999',
  '10000+',
] as const;
export type EmployeesClass = (typeof EMPLOYEES_CLASSES)[number];

export const EXPAND_VALUES = ['latest_financials'] as const;

export const SORT_KEYS = [
  'relevance',
  'distance',
  'name',
  'revenue',
  'profit',
  'registration_date',
  'equity_ratio',
  'revenue_growth',
  'employees_class',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
// Every key also descending, but distance: a near search reads outward from its centre (both
// stores), so farthest first is not offered, and `-distance` is refused rather than answered
// nearest first (docs/decisions.md).
export const SORT_VALUES = SORT_KEYS.flatMap((k) => (k === 'distance' ? [k] : [k, `-${k}`]));

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export const EVENT_TYPES = [
  'company.created',
  'company.updated',
  'company.status_changed',
  'financials.published',
  'export.completed',
  'export.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = 'webhook.test';

export const WEBHOOK_STATUSES = ['active', 'failing', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const SCOPES = ['companies:read', 'exports:create', 'exports:read', 'webhooks:manage'] as const;
export type Scope = (typeof SCOPES)[number];
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

/** Spec §8. */
export const LIMITS = {
  qMaxLength: 200,
  limitMin: 1,
  limitMax: 100,
  limitDefault: 25,
  radiusDefaultKm: 10,
  radiusMaxKm: 500,
  countBudgetMs: 1000,
  exportPartRows: 100_000,
  downloadTtlSeconds: 24 * 3600,
  idempotencyTtlSeconds: 24 * 3600,
  webhookTimeoutMs: 10_000,
  webhookRetryScheduleSeconds: [60, 300, 1800, 7200, 21600, 43200, 86400],
  webhookFailingAfter: 7,
  webhookDisableAfterSeconds: 3 * 24 * 3600,
  /** Webhooks one account may have: each event is queued once per subscribed webhook, and GET /webhooks is one page. */
  webhooksPerAccount: 100,
  /**
   * Exports one account may have queued or running at once: past it, POST /exports is a 429
   * until one finishes. Each export holds a worker's turn and up to the register's size on disk
   * for a day; this keeps one key from queueing without end.
   */
  unfinishedExportsPerAccount: 10,
  /** The Retry-After of that 429: about what a large export takes to finish. */
  unfinishedExportsRetryAfterSeconds: 30,
  secretOverlapSeconds: 24 * 3600,
  signatureToleranceSeconds: 300,
  bodyMaxBytes: 1024 * 1024,
} as const;
