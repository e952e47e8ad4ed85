import type { BolagEvent } from '../../core/events.js';
import type { OutboxEvent, OutboxRepository } from '../outbox.js';
import type { Db } from './database.js';
import { statementCache } from './statements.js';
import { writeTransaction } from './write-transaction.js';

export class SqliteOutboxRepository implements OutboxRepository {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(private readonly db: Db) {
    this.sql = statementCache(db);
  }

  async append(event: BolagEvent, accountId: string | null, subject: OutboxEvent['subject']): Promise<void> {
    const insert = this.sql('INSERT INTO outbox (account_id, event, subject, created_at) VALUES (?, ?, ?, ?)');
    await writeTransaction(this.db, () => insert.run(accountId, JSON.stringify(event), subject ? JSON.stringify(subject) : null, new Date().toISOString()));
  }

  async readAfter(afterSeq: number, limit: number): Promise<OutboxEvent[]> {
    const rows = this.sql('SELECT seq, account_id, event, subject FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?')
      .all(afterSeq, limit) as { seq: number; account_id: string | null; event: string; subject: string | null }[];
    return rows.map((r) => ({
      seq: r.seq,
      account_id: r.account_id,
      event: JSON.parse(r.event) as BolagEvent,
      subject: r.subject ? JSON.parse(r.subject) : null,
    }));
  }

  async getCursor(name: string): Promise<number> {
    return (this.sql('SELECT seq FROM outbox_cursors WHERE name = ?').pluck().get(name) as number | undefined) ?? 0;
  }

  async advanceCursor(name: string, from: number, to: number): Promise<boolean> {
    const advance = this.sql(
      `INSERT INTO outbox_cursors (name, seq) VALUES (@name, @to)
       ON CONFLICT (name) DO UPDATE SET seq = excluded.seq WHERE outbox_cursors.seq = @from`,
    );
    return writeTransaction(this.db, () => advance.run({ name, from, to }).changes > 0);
  }
}
