// The durable job queue: a row per job, claimed with a lease. A claim writes a new lease token;
// extending and settling match on it, so a worker whose lease lapsed (and whose job another
// worker took over) changes nothing when it finally reports. A worker that dies leaves its lease
// to lapse and the job becomes due again, so a crash loses nothing. Claims run in IMMEDIATE
// transactions: the write lock is taken before the read, so two processes never claim one job.
import { randomBytes } from 'node:crypto';
import { newId } from '../../core/ids.js';
import { capScan, claimPlan, GROUP_FIELD, type GroupWalk, groupWalkOf, payloadField, pickWithinCaps } from '../claim-options.js';
import type { ClaimOptions, Job, JobClaim, JobQueue, JobSettlement } from '../store.js';
import type { Db } from './database.js';
import { statementCache } from './statements.js';
import { LeaseOwner } from './incarnation-repository.js';
import { writeTransaction } from './write-transaction.js';

interface JobRow {
  id: string;
  kind: string;
  attempts: number;
  run_at: number;
}

type CandidateRow = JobRow & Record<string, unknown>;

const newLease = () => randomBytes(12).toString('base64url');

/** Queues a job (also inside a transaction that writes what the job works on). */
export function insertJob(
  sql: ReturnType<typeof statementCache>,
  kind: string,
  payload: Record<string, unknown>,
  opts: { runAt?: Date; key?: string } = {},
): string {
  const id = newId('job');
  const r = sql(
    `INSERT INTO jobs (id, kind, payload, key, state, run_at, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)
     ON CONFLICT (key) DO NOTHING`,
  ).run(id, kind, JSON.stringify(payload), opts.key ?? null, (opts.runAt ?? new Date()).getTime(), new Date().toISOString());
  if (r.changes === 0 && opts.key) return sql('SELECT id FROM jobs WHERE key = ?').pluck().get(opts.key) as string;
  return id;
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
    return insertJob(this.sql, kind, payload, opts);
  }

  async claim(kinds: readonly string[], leaseMs: number): Promise<Job | null> {
    return (await this.claimMany(kinds, leaseMs, 1))[0] ?? null;
  }

  async claimMany(kinds: readonly string[], leaseMs: number, limit: number, opts: ClaimOptions = {}): Promise<Job[]> {
    if (limit <= 0 || kinds.length === 0) return [];
    const { skips, last, caps } = claimPlan(opts);
    // Capped, the window's rows bring only the fields the caps look at (read by SQLite from the
    // payload); the payloads, with their event bodies, are read for the rows picked only.
    const columns = caps.length > 0 ? caps.map((cap, i) => `json_extract(payload, '$.${cap.field}') AS cap_${i}`).join(', ') : 'payload';
    const walk = groupWalkOf(kinds, opts);
    const select = this.sql(
      `SELECT id, kind, attempts, run_at, ${columns} FROM jobs
       WHERE state = 'queued' AND run_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
         AND kind IN (${kinds.map(() => '?').join(', ')})
         ${skips.map((skip) => `AND coalesce(json_extract(payload, '$.${skip.field}'), '') NOT IN (SELECT value FROM json_each(?))`).join(' ')}
       ORDER BY ${last ? `coalesce((SELECT key + 1 FROM json_each(?) WHERE value = json_extract(payload, '$.${last.field}')), 0), ` : ''}run_at LIMIT ?`,
    );
    const scan = caps.length > 0 ? capScan(limit) : limit;
    const params = [...kinds, ...skips.map((skip) => JSON.stringify(skip.values)), ...(last ? [JSON.stringify(last.values)] : []), scan];
    const lock = this.sql('UPDATE jobs SET locked_until = ?, lease = ?, locked_by = ? WHERE id = ? RETURNING payload');
    return writeTransaction(this.db, () => {
      // The clock is read inside the write lock: a claim that waited for the lock judges
      // leases by the time it actually claims.
      const now = Date.now();
      const rows = walk ? this.groupHeads(kinds[0], columns, walk, scan, now) : (select.all(now, now, ...params) as CandidateRow[]);
      const candidates = rows.map((row) => ({ row, payload: caps.length > 0 ? Object.fromEntries(caps.map((cap, i) => [cap.field, row[`cap_${i}`]])) : {} }));
      return pickWithinCaps(candidates, caps, limit).map(({ row }) => {
        const lease = newLease();
        const { payload } = lock.get(now + leaseMs, lease, this.owner.id, row.id) as { payload: string };
        return { id: row.id, kind: row.kind, payload: JSON.parse(payload) as Record<string, unknown>, attempts: row.attempts, runAt: new Date(row.run_at), lease };
      });
    });
  }

  /**
   * Past full caps: the due jobs at the head of each group (GROUP_FIELD) but the full ones, the
   * first `scan` of them by age. A group is found by one step along `jobs_group_due` and its head
   * by one range of it, so the walk costs what the groups number, not what their backlogs hold:
   * reading a full webhook's week of deliveries row by row took 200–500 ms of the event loop, under
   * the write lock, at every such claim. Rows of another cap's full values are left out after each
   * group's head is read (a webhook's deliveries share their account). `INDEXED BY`: should
   * SQLite's planner prefer another index, the walk would read the backlogs again.
   */
  private groupHeads(kind: string, columns: string, walk: GroupWalk, scan: number, now: number): CandidateRow[] {
    const group = `json_extract(payload, '$.${GROUP_FIELD}')`;
    const groups = this.sql(
      `WITH RECURSIVE grp(v) AS (
         SELECT (SELECT min(${group}) FROM jobs INDEXED BY jobs_group_due WHERE kind = ? AND state = 'queued')
         UNION ALL
         SELECT (SELECT min(${group}) FROM jobs INDEXED BY jobs_group_due WHERE kind = ? AND state = 'queued' AND ${group} > grp.v) FROM grp WHERE grp.v IS NOT NULL
       ) SELECT v FROM grp WHERE v IS NOT NULL`,
    ).pluck();
    const head = this.sql(
      `SELECT id, kind, attempts, run_at, ${columns} FROM jobs INDEXED BY jobs_group_due
       WHERE kind = ? AND state = 'queued' AND ${group} = ? AND run_at <= ? AND (locked_until IS NULL OR locked_until <= ?)
       ORDER BY run_at LIMIT ?`,
    );
    const full = new Set(walk.fullGroups);
    const rows: CandidateRow[] = [];
    for (const value of groups.all(kind, kind) as string[]) {
      if (full.has(value)) continue;
      for (const row of head.all(kind, value, now, now, Math.max(0, Math.min(scan, Math.floor(walk.room(value))))) as CandidateRow[]) {
        if (!walk.otherFull.some(({ cap, values }) => values.has(row[`cap_${cap}`] as string))) rows.push(row);
      }
    }
    return rows.sort((a, b) => a.run_at - b.run_at).slice(0, scan);
  }

  async extend(job: JobClaim, leaseMs: number): Promise<boolean> {
    const extend = this.sql("UPDATE jobs SET locked_until = ? WHERE id = ? AND lease = ? AND state = 'queued'");
    return writeTransaction(this.db, () => extend.run(Date.now() + leaseMs, job.id, job.lease).changes > 0);
  }

  async complete(job: JobClaim): Promise<boolean> {
    return writeTransaction(this.db, () => this.done(job));
  }

  async retry(job: JobClaim, runAt: Date, error: string): Promise<boolean> {
    return writeTransaction(this.db, () => this.retryOne(job, runAt, error));
  }

  async leasedValues(kind: string, field: string): Promise<string[]> {
    const name = payloadField(field);
    return this.sql(
      `SELECT DISTINCT json_extract(payload, '$.${name}') FROM jobs
       WHERE kind = ? AND state = 'queued' AND locked_until > ? AND json_type(payload, '$.${name}') = 'text'`,
    )
      .pluck()
      .all(kind, Date.now()) as string[];
  }

  async release(job: JobClaim): Promise<boolean> {
    const release = this.sql("UPDATE jobs SET locked_until = NULL, lease = NULL, locked_by = NULL WHERE id = ? AND lease = ? AND state = 'queued'");
    return writeTransaction(this.db, () => release.run(job.id, job.lease).changes > 0);
  }

  async fail(job: JobClaim, error: string): Promise<boolean> {
    return writeTransaction(this.db, () => this.failOne(job, error));
  }

  async enqueueMany(jobs: readonly { kind: string; payload: Record<string, unknown>; runAt?: Date; key?: string }[]): Promise<void> {
    if (jobs.length === 0) return;
    const insert = this.sql(
      `INSERT INTO jobs (id, kind, payload, key, state, run_at, created_at) VALUES (?, ?, ?, ?, 'queued', ?, ?)
       ON CONFLICT (key) DO NOTHING`,
    );
    const now = new Date();
    await writeTransaction(this.db, () => {
      for (const j of jobs) {
        insert.run(newId('job'), j.kind, JSON.stringify(j.payload), j.key ?? null, (j.runAt ?? now).getTime(), now.toISOString());
      }
    });
  }

  async settle(results: readonly JobSettlement[]): Promise<void> {
    if (results.length === 0) return;
    await writeTransaction(this.db, () => {
      for (const r of results) this.settleOne(r);
    });
  }

  /** Settles one job under its lease, in the caller's transaction; false when the claim is no longer current. */
  settleOne(s: JobSettlement): boolean {
    if (s.outcome === 'complete') return this.done(s.job);
    if (s.outcome === 'retry') return this.retryOne(s.job, s.runAt, s.error);
    return this.failOne(s.job, s.error);
  }

  private done(job: JobClaim): boolean {
    return this.sql("UPDATE jobs SET state = 'done', locked_until = NULL, lease = NULL, locked_by = NULL WHERE id = ? AND lease = ? AND state = 'queued'").run(job.id, job.lease).changes > 0;
  }

  private retryOne(job: JobClaim, runAt: Date, error: string): boolean {
    return (
      this.sql("UPDATE jobs SET attempts = attempts + 1, run_at = ?, locked_until = NULL, lease = NULL, locked_by = NULL, last_error = ? WHERE id = ? AND lease = ? AND state = 'queued'")
        .run(runAt.getTime(), error, job.id, job.lease).changes > 0
    );
  }

  private failOne(job: JobClaim, error: string): boolean {
    return (
      this.sql("UPDATE jobs SET state = 'failed', attempts = attempts + 1, locked_until = NULL, lease = NULL, locked_by = NULL, last_error = ? WHERE id = ? AND lease = ? AND state = 'queued'")
        .run(error, job.id, job.lease).changes > 0
    );
  }
}
