// Delivery health over time (spec §3.2; contract §2.7): failing after 7 failures in a row
// (counted by the store, atomically), disabled once failing has lasted the disable period.
// The second step is checked wherever a webhook is looked at: fan-out, delivery, and reads.
import type { StoredWebhook } from '../store/webhooks.js';
import type { Store } from '../store/store.js';

export function isPastFailingPeriod(w: StoredWebhook, now: Date, disableAfterSeconds: number): boolean {
  if (w.status !== 'failing' || w.failing_since === null) return false;
  return now.getTime() - Date.parse(w.failing_since) >= disableAfterSeconds * 1000;
}

/**
 * The webhook with its status brought up to date, persisting a move to disabled: only while it is
 * still failing as read (a success or a PATCH to active since then stands), else as it is now.
 */
export async function refreshHealth(store: Store, w: StoredWebhook, now: Date, disableAfterSeconds: number): Promise<StoredWebhook> {
  if (!isPastFailingPeriod(w, now, disableAfterSeconds)) return w;
  if (await store.webhooks.disableFailing(w.id, w.failing_since!)) return { ...w, status: 'disabled' };
  return (await store.webhooks.getById(w.id)) ?? w;
}

/** The secrets a delivery is signed with now: the current one, and the previous while its overlap lasts. */
export function signingSecrets(w: StoredWebhook, now: Date): string[] {
  const secrets = [w.secret];
  if (w.previous_secret && w.previous_secret_expires_at && Date.parse(w.previous_secret_expires_at) > now.getTime()) {
    secrets.push(w.previous_secret);
  }
  return secrets;
}
