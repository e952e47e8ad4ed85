import type { WebhookStatus } from '../core/values.js';
import type { JobSettlement } from './store.js';

export interface StoredWebhook {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  filters: Record<string, string[]>;
  status: WebhookStatus;
  secret: string;
  /** The secret before the last rotation, signed with too until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  consecutive_failures: number;
  failing_since: string | null;
  created_at: string;
}

export interface StoredDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
}

/** One finished delivery attempt and how its job ends. */
export interface AttemptSettlement {
  job: JobSettlement;
  delivery: StoredDelivery | null;
  ok: boolean;
}

export interface WebhookRepository {
  /**
   * Stores a new webhook unless its account already has `maxPerAccount` (false then). The count
   * and the insert are one step for every process on the database: concurrent creates never
   * pass the cap together.
   */
  create(w: StoredWebhook, opts?: { maxPerAccount?: number }): Promise<boolean>;
  get(accountId: string, id: string): Promise<StoredWebhook | null>;
  getById(id: string): Promise<StoredWebhook | null>;
  list(accountId: string): Promise<StoredWebhook[]>;
  /** Active and failing webhooks of an account (or of every account) subscribed to this type. */
  listSubscribed(eventType: string, accountId: string | null): Promise<StoredWebhook[]>;
  update(id: string, patch: Partial<StoredWebhook>): Promise<void>;
  /**
   * Makes `secret` the signing secret and the one it replaces the previous secret, valid until
   * `previousExpiresAt`, in one statement: of two rotations at once, the later keeps the
   * earlier's secret as its previous one. Returns what it replaced, or null when the webhook is gone.
   */
  rotateSecret(id: string, secret: string, previousExpiresAt: string): Promise<{ previous_secret: string } | null>;
  /**
   * Disables a webhook that is still failing since `failingSince`; false (nothing written) when
   * it is not: a success, a PATCH or a new run of failures moved it after it was read.
   */
  disableFailing(id: string, failingSince: string): Promise<boolean>;
  delete(accountId: string, id: string): Promise<boolean>;
  recordDelivery(d: StoredDelivery): Promise<void>;
  /** Newest first; `before` continues after the last delivery of the previous page. */
  listDeliveries(webhookId: string, limit: number, before?: { created_at: string; id: string }): Promise<StoredDelivery[]>;
  /**
   * Counts one delivery outcome atomically. A success ends the run of failures (status back to
   * active unless disabled); a failure extends it and, at `failingAfter` in a row, marks an
   * active webhook failing since `now`.
   */
  recordOutcome(id: string, ok: boolean, opts: { now: string; failingAfter: number }): Promise<void>;
  /**
   * Settles several delivery jobs and records their attempts in one transaction. An attempt is
   * recorded, and its outcome counted (as recordDelivery and recordOutcome, in order, each at its
   * delivery's created_at), only when its job's settlement took effect (the lease was still
   * current): a job is completed once, so a successful attempt is recorded once per event and
   * webhook, whether the worker died before this transaction (the job runs again) or its lease
   * lapsed and another worker took the job over. `delivery` null: settle only (nothing was sent).
   * On PostgreSQL the outcomes are counted just after, in a transaction of their own that locks
   * only the webhooks whose health changes (several processes deliver to one webhook at once).
   */
  recordAttempts(items: readonly AttemptSettlement[], opts: { failingAfter: number }): Promise<void>;
}
