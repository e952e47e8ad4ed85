import type { BolagEvent } from '../../core/events.js';
import type { OutboxEvent, OutboxRepository } from '../outbox.js';
import type { PgDb } from './database.js';

export class PgOutboxRepository implements OutboxRepository {
  constructor(private readonly db: PgDb) {}

  async append(event: BolagEvent, accountId: string | null, subject: OutboxEvent['subject']): Promise<void> {
    await this.db.query('INSERT INTO outbox (account_id, event, subject) VALUES ($1, $2, $3)', [
      accountId,
      JSON.stringify(event),
      subject ? JSON.stringify(subject) : null,
    ]);
  }

  async readAfter(afterSeq: number, limit: number): Promise<OutboxEvent[]> {
    // Rows commit in seq order (the outbox trigger serialises writers), so nothing with a lower
    // seq can appear after a higher one has been read.
    const r = await this.db.query<OutboxEvent>('SELECT seq, account_id, event, subject FROM outbox WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit]);
    return r.rows;
  }

  async getCursor(name: string): Promise<number> {
    return (await this.db.query<{ seq: number }>('SELECT seq FROM outbox_cursors WHERE name = $1', [name])).rows[0]?.seq ?? 0;
  }

  async advanceCursor(name: string, from: number, to: number): Promise<boolean> {
    const r = await this.db.query(
      `INSERT INTO outbox_cursors AS c (name, seq) VALUES ($1, $3) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq WHERE c.seq = $2`,
      [name, from, to],
    );
    return (r.rowCount ?? 0) > 0;
  }
}
