import type { BolagEvent } from '../../core/events.js';
import type { OutboxEvent, OutboxRepository } from '../outbox.js';
import type { Db } from './database.js';

export class SqliteOutboxRepository implements OutboxRepository {
  constructor(private readonly db: Db) {}

  async append(event: BolagEvent, accountId: string | null, subject: OutboxEvent['subject']): Promise<void> {
    this.db
      .prepare('INSERT INTO outbox (account_id, event, subject, created_at) VALUES (?, ?, ?, ?)')
      .run(accountId, JSON.stringify(event), subject ? JSON.stringify(subject) : null, new Date().toISOString());
  }

  async readAfter(afterSeq: number, limit: number): Promise<OutboxEvent[]> {
    const rows = this.db
      .prepare('SELECT seq, account_id, event, subject FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, limit) as { seq: number; account_id: string | null; event: string; subject: string | null }[];
    return rows.map((r) => ({
      seq: r.seq,
      account_id: r.account_id,
      event: JSON.parse(r.event) as BolagEvent,
      subject: r.subject ? JSON.parse(r.subject) : null,
    }));
  }

  async getCursor(name: string): Promise<number> {
    return (this.db.prepare('SELECT seq FROM outbox_cursors WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
  }

  async setCursor(name: string, seq: number): Promise<void> {
    this.db
      .prepare('INSERT INTO outbox_cursors (name, seq) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET seq = excluded.seq')
      .run(name, seq);
  }
}
