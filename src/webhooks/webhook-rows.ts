// The webhook rows the delivery worker sends with (URL, secrets, status), each read from the
// store at most once a second instead of once a delivery: at hundreds of deliveries a second to
// one webhook, that read was a third of the worker's queries. A change made through this
// process's API (PATCH, DELETE, a rotated secret) is seen at the next delivery; one made by
// another process on the same database within a second (docs/decisions.md, "Webhook rows read
// once a second"). Only a row that receives is kept: a webhook deleted or disabled is read
// afresh each time, so a delivery is never dropped on what a kept row said (re-enabled by
// another process meanwhile, it receives at once).
import type { StoredWebhook } from '../store/webhooks.js';

export const WEBHOOK_ROW_MAX_AGE_MS = 1000;
/** Past this many rows, the expired ones are dropped on the next read. */
const PRUNE_AT = 1024;

export class WebhookRows {
  private readonly rows = new Map<string, { row: StoredWebhook; readAt: number }>();
  /** Bumped by every change: a read that began before one does not keep its row. */
  private generation = 0;

  constructor(
    private readonly read: (id: string) => Promise<StoredWebhook | null>,
    private readonly maxAgeMs = WEBHOOK_ROW_MAX_AGE_MS,
  ) {}

  async get(id: string): Promise<StoredWebhook | null> {
    const now = Date.now();
    const kept = this.rows.get(id);
    if (kept && now - kept.readAt < this.maxAgeMs) return kept.row;
    const generation = this.generation;
    const row = await this.read(id);
    if (generation === this.generation && row !== null && row.status !== 'disabled') this.keep(id, row, now);
    return row;
  }

  /** Forgets a row changed elsewhere in this process; the next delivery reads it again. */
  changed(id: string): void {
    this.generation++;
    this.rows.delete(id);
  }

  private keep(id: string, row: StoredWebhook, readAt: number): void {
    if (this.rows.size >= PRUNE_AT) {
      for (const [key, kept] of this.rows) if (readAt - kept.readAt >= this.maxAgeMs) this.rows.delete(key);
    }
    this.rows.set(id, { row, readAt });
  }
}
