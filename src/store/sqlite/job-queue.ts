// The durable job queue: a row per job, claimed with a lease. A worker that dies leaves its
// lease to lapse and the job becomes due again, so a crash loses nothing.
import { newId } from '../../core/ids.js';
import type { Job, JobQueue, JobSettlement } from '../store.js';
import type { Db } from './database.js';
import { statementCache } from './statements.js';
import { LeaseOwner } from './incarnation-repository.js';

interface JobRow {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  run_at: number;
}

export class SqliteJobQueue implements JobQueue {
  private readonly sql: ReturnType<typeof statementCache>;

  constructor(
    private readonly db: Db,
    /** Whose leases this queue takes (set when the process registers its incarnation). */
    private readonly owner: LeaseOwner = new LeaseOwner(),
  ) {
    this.sql = statementCache(db);
  }

  async enqueue(kind: string, payload: Record<string, unknown>, opts: { runAt?: Date; key?: string } = {}): Promise<string> {
    const id = newId('job');
    const r = this.sql(
        `INSERT INTO jobs (id, kind, payload, key, state, run_at, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)
         ON CONFLICT (key) DO NOTHING`,
      )
      .run(id, kind, JSON.stringify(payload), opts.key ?? null, (opts.runAt ?? new Date()).getTime(), new Date().toISOString());
    if (r.changes === 0 && opts.key) return this.sql('SELECT id FROM jobs WHERE key = ?').pluck().get(opts.key) as string;
    return id;
  }

  async claim(kinds: readonly string[], leaseMs: number): Promise<Job | null> {
    const now = Date.now();
    const claim = this.db.transaction(() => {
      const row = this.sql(
          `SELECT id, kind, payload, attempts, run_at FROM jobs
           WHERE state = 'queued' AND run_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
             AND kind IN (${kinds.map(() => '?').join(', ')})
           ORDER BY run_at LIMIT 1`,
        )
        .get(now, now, ...kinds) as JobRow | undefined;
      if (!row) return null;
      this.sql('UPDATE jobs SET locked_until = ?, locked_by = ? WHERE id = ?').run(now + leaseMs, this.owner.id, row.id);
      return row;
    });
    const row = claim.immediate();
    if (!row) return null;
    return { id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempts: row.attempts, runAt: new Date(row.run_at) };
  }

  async extend(jobId: string, leaseMs: number): Promise<void> {
    this.sql("UPDATE jobs SET locked_until = ? WHERE id = ? AND state = 'queued'").run(Date.now() + leaseMs, jobId);
  }

  async complete(jobId: string): Promise<void> {
    this.sql("UPDATE jobs SET state = 'done', locked_until = NULL WHERE id = ?").run(jobId);
  }

  async retry(jobId: string, runAt: Date, error: string): Promise<void> {
    this.sql('UPDATE jobs SET attempts = attempts + 1, run_at = ?, locked_until = NULL, last_error = ? WHERE id = ?')
      .run(runAt.getTime(), error, jobId);
  }

  async enqueueMany(jobs: readonly { kind: string; payload: Record<string, unknown>; runAt?: Date; key?: string }[]): Promise<void> {
    if (jobs.length === 0) return;
    const insert = this.sql(
      `INSERT INTO jobs (id, kind, payload, key, state, run_at, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)
       ON CONFLICT (key) DO NOTHING`,
    );
    const now = new Date();
    this.db.transaction(() => {
      for (const j of jobs) {
        insert.run(newId('job'), j.kind, JSON.stringify(j.payload), j.key ?? null, (j.runAt ?? now).getTime(), now.toISOString());
      }
    })();
  }

  async claimMany(kinds: readonly string[], leaseMs: number, limit: number, opts: { skipKeyPrefixes?: readonly string[] } = {}): Promise<Job[]> {
    if (limit <= 0) return [];
    const now = Date.now();
    const skip = opts.skipKeyPrefixes ?? [];
    const select = this.sql(
      `SELECT id, kind, payload, attempts, run_at FROM jobs
       WHERE state = 'queued' AND run_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
         AND kind IN (${kinds.map(() => '?').join(', ')})
         ${skip.length ? `AND (key IS NULL OR NOT (${skip.map(() => 'substr(key, 1, ?) = ?').join(' OR ')}))` : ''}
       ORDER BY run_at LIMIT ?`,
    );
    const lock = this.sql('UPDATE jobs SET locked_until = ?, locked_by = ? WHERE id = ?');
    const rows = this.db
      .transaction(() => {
        const found = select.all(now, now, ...kinds, ...skip.flatMap((p) => [p.length, p]), limit) as JobRow[];
        for (const row of found) lock.run(now + leaseMs, this.owner.id, row.id);
        return found;
      })
      .immediate();
    return rows.map((row) => ({ id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempts: row.attempts, runAt: new Date(row.run_at) }));
  }

  async release(jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    const release = this.sql("UPDATE jobs SET locked_until = NULL, locked_by = NULL WHERE id = ? AND state = 'queued'");
    this.db.transaction(() => {
      for (const id of jobIds) release.run(id);
    })();
  }

  async settle(results: readonly JobSettlement[]): Promise<void> {
    if (results.length === 0) return;
    const done = this.sql("UPDATE jobs SET state = 'done', locked_until = NULL WHERE id = ?");
    const retry = this.sql('UPDATE jobs SET attempts = attempts + 1, run_at = ?, locked_until = NULL, last_error = ? WHERE id = ?');
    const fail = this.sql("UPDATE jobs SET state = 'failed', attempts = attempts + 1, locked_until = NULL, last_error = ? WHERE id = ?");
    this.db.transaction(() => {
      for (const r of results) {
        if (r.outcome === 'complete') done.run(r.jobId);
        else if (r.outcome === 'retry') retry.run(r.runAt.getTime(), r.error, r.jobId);
        else fail.run(r.error, r.jobId);
      }
    })();
  }

  async fail(jobId: string, error: string): Promise<void> {
    this.sql("UPDATE jobs SET state = 'failed', attempts = attempts + 1, locked_until = NULL, last_error = ? WHERE id = ?")
      .run(error, jobId);
  }
}
