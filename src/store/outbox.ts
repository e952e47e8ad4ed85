import type { BolagEvent } from '../core/events.js';

/** An event waiting to be fanned out to webhooks. account_id null: a register event for every account. */
export interface OutboxEvent {
  seq: number;
  account_id: string | null;
  event: BolagEvent;
  /** For company events: the company as filters see it (county, status, …), to match webhook filters. */
  subject: Record<string, string | string[]> | null;
}

export interface OutboxRepository {
  append(event: BolagEvent, accountId: string | null, subject: OutboxEvent['subject']): Promise<void>;
  /** Events after `afterSeq`, oldest first. */
  readAfter(afterSeq: number, limit: number): Promise<OutboxEvent[]>;
  /** The dispatcher's durable read position, so a restart fans out nothing twice and nothing never. */
  getCursor(name: string): Promise<number>;
  /**
   * Moves the cursor from `from` to `to` if it is still at `from` (compare and set); false when
   * another process moved it first, so a cursor never goes back and a batch is taken once.
   */
  advanceCursor(name: string, from: number, to: number): Promise<boolean>;
}
