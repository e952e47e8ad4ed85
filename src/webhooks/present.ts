// The public shapes of a webhook and a delivery (contract §2.7). The secret appears only when
// asked for, which the create and rotate responses alone do.
import type { StoredDelivery, StoredWebhook } from '../store/webhooks.js';

export interface PublicWebhook {
  id: string;
  url: string;
  events: string[];
  filters: Record<string, string[]>;
  status: StoredWebhook['status'];
  created_at: string;
  failing_since: string | null;
  /** Until when deliveries are also signed with the previous secret, after a rotation. */
  previous_secret_expires_at: string | null;
  secret?: string;
}

export function presentWebhook(w: StoredWebhook, opts: { withSecret?: boolean; now?: Date } = {}): PublicWebhook {
  const now = opts.now ?? new Date();
  const overlap = w.previous_secret_expires_at && Date.parse(w.previous_secret_expires_at) > now.getTime() ? w.previous_secret_expires_at : null;
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    filters: w.filters,
    status: w.status,
    created_at: w.created_at,
    failing_since: w.failing_since,
    previous_secret_expires_at: overlap,
    ...(opts.withSecret ? { secret: w.secret } : {}),
  };
}

export function presentDelivery(d: StoredDelivery) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    attempt: d.attempt,
    status_code: d.status_code,
    duration_ms: d.duration_ms,
    error: d.error,
    succeeded: d.status_code !== null && d.status_code >= 200 && d.status_code < 300,
    created_at: d.created_at,
  };
}
