// Incarnations for PostgreSQL: a row per running server process (any host); the job queue stamps
// the leases it takes with the id registered here. Reaping is done only for a host's own dead
// processes (src/app/incarnation.ts): other hosts' leases lapse as before.
import { LeaseOwner } from '../lease-owner.js';
import type { Incarnation, IncarnationRepository } from '../store.js';
import type { PgDb } from './database.js';

export class PgIncarnationRepository implements IncarnationRepository {
  constructor(
    private readonly db: PgDb,
    private readonly owner: LeaseOwner,
  ) {}

  async register(i: Incarnation): Promise<void> {
    await this.db.query('INSERT INTO incarnations (id, host, pid, started_at) VALUES ($1, $2, $3, $4)', [i.id, i.host, i.pid, i.started_at]);
    this.owner.id = i.id;
  }

  async onHost(host: string): Promise<Incarnation[]> {
    return (await this.db.query<Incarnation>('SELECT id, host, pid, started_at FROM incarnations WHERE host = $1 ORDER BY started_at, id', [host])).rows;
  }

  async reap(id: string): Promise<number> {
    const n = await this.db.tx(async (client) => {
      const r = await client.query("UPDATE jobs SET locked_until = NULL, lease = NULL, locked_by = NULL WHERE locked_by = $1 AND state = 'queued'", [id]);
      await client.query('DELETE FROM incarnations WHERE id = $1', [id]);
      return r.rowCount ?? 0;
    });
    if (this.owner.id === id) this.owner.id = null;
    return n;
  }
}
