// Incarnations for SQLite: a row per running server process; the job queue stamps the leases
// it takes with the id registered here (see LeaseOwner).
import type { Incarnation, IncarnationRepository } from '../store.js';
import type { Db } from './database.js';

import { LeaseOwner } from '../lease-owner.js';

export { LeaseOwner };

export class SqliteIncarnationRepository implements IncarnationRepository {
  constructor(
    private readonly db: Db,
    private readonly owner: LeaseOwner,
  ) {}

  async register(i: Incarnation): Promise<void> {
    this.db.prepare('INSERT INTO incarnations (id, host, pid, started_at) VALUES (?, ?, ?, ?)').run(i.id, i.host, i.pid, i.started_at);
    this.owner.id = i.id;
  }

  async onHost(host: string): Promise<Incarnation[]> {
    return this.db.prepare('SELECT id, host, pid, started_at FROM incarnations WHERE host = ? ORDER BY started_at').all(host) as Incarnation[];
  }

  async reap(id: string): Promise<number> {
    return this.db.transaction(() => {
      const n = this.db.prepare("UPDATE jobs SET locked_until = NULL, lease = NULL, locked_by = NULL WHERE locked_by = ? AND state = 'queued'").run(id).changes;
      this.db.prepare('DELETE FROM incarnations WHERE id = ?').run(id);
      if (this.owner.id === id) this.owner.id = null;
      return n;
    })();
  }
}
