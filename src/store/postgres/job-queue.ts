// The durable job queue on PostgreSQL. A claim picks due rows with FOR UPDATE SKIP LOCKED, so
// concurrent claimers in any number of processes never wait for each other nor get the same row,
// and writes a lease: a deadline and a token. Extending and settling match on the token, so a
// worker whose lease lapsed (and whose job was taken over) changes nothing when it reports late.
// The database's clock judges every lease, so the processes' clocks need not agree.
import { randomBytes } from 'node:crypto';
import { newId } from '../../core/ids.js';
import type { ClaimOptions, Job, JobCap, JobClaim, JobQueue, JobSettlement } from '../store.js';
import { capScan, claimPlan, GROUP_FIELD, type GroupWalk, groupWalkOf, payloadField } from '../claim-options.js';
import { isStoreUnavailable } from '../unavailable.js';
import type { PgDb, Queryable } from './database.js';
import { LeaseOwner } from '../lease-owner.js';

interface JobRow {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  run_at: Date;
  lease: string;
}

/** `n` lease tokens from one read of the random source (a read each cost more than the claim's query). */
const newLeases = (n: number): string[] => {
  const bytes = randomBytes(12 * n);
  return Array.from({ length: n }, (_, i) => bytes.subarray(12 * i, 12 * i + 12).toString('base64url'));
};
const CURRENT = "id = $1 AND lease = $2 AND state = 'queued'";

/** Queues a job on `q` (the pool, or the client of a transaction that writes what the job works on). */
export async function insertJob(q: Queryable, kind: string, payload: Record<string, unknown>, opts: { runAt?: Date; key?: string } = {}): Promise<string> {
  const id = newId('job');
  const r = await q.query<{ id: string }>(
    `INSERT INTO jobs (id, kind, payload, key, state, run_at) VALUES ($1, $2, $3, $4, 'queued', $5)
     ON CONFLICT (key) DO NOTHING RETURNING id`,
    [id, kind, JSON.stringify(payload), opts.key ?? null, opts.runAt ?? new Date()],
  );
  if (r.rows.length === 0 && opts.key) return (await q.query<{ id: string }>('SELECT id FROM jobs WHERE key = $1', [opts.key])).rows[0].id;
  return id;
}

export class PgJobQueue implements JobQueue {
  constructor(
    private readonly db: PgDb,
    /** Whose leases this queue takes (`locked_by`: the incarnation registered on this store). */
    private readonly owner: LeaseOwner = new LeaseOwner(),
  ) {}

  async enqueue(kind: string, payload: Record<string, unknown>, opts: { runAt?: Date; key?: string } = {}): Promise<string> {
    return insertJob(this.db, kind, payload, opts);
  }

  async enqueueMany(jobs: readonly { kind: string; payload: Record<string, unknown>; runAt?: Date; key?: string }[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = new Date();
    // One statement for the batch: arrays unnested into rows.
    await this.db.query(
      `INSERT INTO jobs (id, kind, payload, key, state, run_at)
       SELECT id, kind, payload::json, key, 'queued', run_at FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])
         AS t(id, kind, payload, key, run_at)
       ON CONFLICT (key) DO NOTHING`,
      [
        jobs.map(() => newId('job')),
        jobs.map((j) => j.kind),
        jobs.map((j) => JSON.stringify(j.payload)),
        jobs.map((j) => j.key ?? null),
        jobs.map((j) => j.runAt ?? now),
      ],
    );
  }

  async claim(kinds: readonly string[], leaseMs: number): Promise<Job | null> {
    return (await this.claimMany(kinds, leaseMs, 1))[0] ?? null;
  }

  async claimMany(kinds: readonly string[], leaseMs: number, limit: number, opts: ClaimOptions = {}): Promise<Job[]> {
    if (limit <= 0 || kinds.length === 0) return [];
    const { skips, last, caps } = claimPlan(opts);
    const params: unknown[] = [kinds, limit, leaseMs, newLeases(limit), this.owner.id];
    const param = (value: unknown) => `$${params.push(value)}`;
    const walk = groupWalkOf(kinds, opts);
    // A group walk reads its own rows (groupHeads): the skips past full caps are its groups.
    const where = (walk ? [] : skips).map((skip) => `AND coalesce(payload->>'${skip.field}', '') <> ALL(${param([...skip.values])}::text[])`).join(' ');
    const order = `${last ? `coalesce(array_position(${param([...last.values])}::text[], payload->>'${last.field}'), 0), ` : ''}run_at`;
    // One kind (every caller's case) as an equality: then jobs_due hands the rows over in run_at
    // order and the scan stops at the limit. With `= ANY`, PostgreSQL read the kind's whole due
    // backlog and sorted it on every claim (4 ms for 5,000 jobs, a second for a week's events).
    const kind = kinds.length === 1 ? 'kind = ($1::text[])[1]' : 'kind = ANY($1)';
    const due = `SELECT id, payload, run_at FROM jobs
      WHERE state = 'queued' AND ${kind} AND run_at <= now() AND (locked_until IS NULL OR locked_until <= now()) ${where}
      ORDER BY ${order}`;
    // Capped: read a window of due jobs, then for each cap in turn keep those ranked within their
    // webhook (account, …) under the room the caller has; the first `limit` of what is left. Only
    // those are locked (a row lock writes the row): the window is read without locks, and a row
    // another claimer took meanwhile is skipped or, leased by a claim that committed, fails the
    // due check again.
    const capped = () => {
      let rows = walk ? groupHeads(walk, caps, param, capScan(limit)) : `${due} LIMIT ${param(capScan(limit))}`;
      for (const cap of caps) {
        const room = `${param(cap.max)} - coalesce((${param(JSON.stringify(Object.fromEntries(cap.busy)))}::jsonb ->> (payload->>'${cap.field}'))::int, 0)`;
        rows = `SELECT id, payload, run_at FROM (
            SELECT id, payload, run_at, row_number() OVER (PARTITION BY payload->>'${cap.field}' ORDER BY ${order}) AS rank FROM (${rows}) candidates
          ) ranked WHERE payload->>'${cap.field}' IS NULL OR rank <= ${room}`;
      }
      return `SELECT j.id FROM jobs j
        WHERE j.id IN (SELECT id FROM (${rows}) capped ORDER BY ${order} LIMIT $2)
          AND j.state = 'queued' AND j.run_at <= now() AND (j.locked_until IS NULL OR j.locked_until <= now())
        FOR UPDATE SKIP LOCKED`;
    };
    const picked = caps.length === 0 ? `${due} LIMIT $2 FOR UPDATE SKIP LOCKED` : capped();
    const r = await this.undoneOnLostAnswer(params[3] as string[], () => this.db.query<JobRow>(
      `WITH due AS (SELECT id, row_number() OVER () AS n FROM (${picked}) picked)
       UPDATE jobs j SET locked_until = now() + $3 * interval '1 millisecond', lease = ($4::text[])[due.n], locked_by = $5
       FROM due WHERE j.id = due.id
       RETURNING j.id, j.kind, j.payload, j.attempts, j.run_at, j.lease`,
      params,
    ));
    return r.rows
      .sort((a, b) => a.run_at.getTime() - b.run_at.getTime())
      .map((row) => ({ id: row.id, kind: row.kind, payload: row.payload, attempts: row.attempts, runAt: row.run_at, lease: row.lease }));
  }

  /**
   * A claim whose connection broke may have been committed with its answer lost: then no one
   * works the jobs it leased until the lease lapses. Release them by their tokens, trying a few
   * times over a second (best effort: when the database stays away, the lease lapses as before).
   */
  private async undoneOnLostAnswer<T>(leases: string[], claim: () => Promise<T>): Promise<T> {
    try {
      return await claim();
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      for (const wait of [0, 200, 800]) {
        await new Promise((r) => setTimeout(r, wait));
        try {
          await this.db.query("UPDATE jobs SET locked_until = NULL, lease = NULL, locked_by = NULL WHERE lease = ANY($1) AND state = 'queued'", [leases]);
          break;
        } catch (undo) {
          if (!isStoreUnavailable(undo)) break;
        }
      }
      throw e;
    }
  }

  async extend(job: JobClaim, leaseMs: number): Promise<boolean> {
    const r = await this.db.query(`UPDATE jobs SET locked_until = now() + $3 * interval '1 millisecond' WHERE ${CURRENT}`, [job.id, job.lease, leaseMs]);
    return (r.rowCount ?? 0) > 0;
  }

  async complete(job: JobClaim): Promise<boolean> {
    return settleOne(this.db, { job, outcome: 'complete' });
  }

  async retry(job: JobClaim, runAt: Date, error: string): Promise<boolean> {
    return settleOne(this.db, { job, outcome: 'retry', runAt, error });
  }

  async leasedValues(kind: string, field: string): Promise<string[]> {
    const name = payloadField(field);
    const r = await this.db.query<{ value: string }>(
      `SELECT DISTINCT payload->>'${name}' AS value FROM jobs
       WHERE kind = $1 AND state = 'queued' AND locked_until > now() AND json_typeof(payload->'${name}') = 'string'`,
      [kind],
    );
    return r.rows.map((row) => row.value);
  }

  async release(job: JobClaim): Promise<boolean> {
    const r = await this.db.query(`UPDATE jobs SET locked_until = NULL, lease = NULL, locked_by = NULL WHERE ${CURRENT}`, [job.id, job.lease]);
    return (r.rowCount ?? 0) > 0;
  }

  async fail(job: JobClaim, error: string): Promise<boolean> {
    return settleOne(this.db, { job, outcome: 'fail', error });
  }

  async settle(results: readonly JobSettlement[]): Promise<void> {
    if (results.length === 0) return;
    await settleMany(this.db, results);
  }
}

/** How settleMany names a settlement: a job under one lease. */
export const settlementKey = (job: JobClaim): string => `${job.id} ${job.lease}`;

/**
 * Settles jobs under their leases in one statement (also inside another repository's
 * transaction); the settlementKeys of those whose claim was still current. A job may appear
 * under an old lease and its current one: only the current one is settled and returned.
 */
export async function settleMany(q: Queryable, list: readonly JobSettlement[]): Promise<Set<string>> {
  if (list.length === 0) return new Set();
  if (list.length === 1) return (await settleOne(q, list[0])) ? new Set([settlementKey(list[0].job)]) : new Set();
  const r = await q.query<{ id: string; lease: string }>(
    `UPDATE jobs j SET
       state = CASE s.outcome WHEN 'complete' THEN 'done' WHEN 'fail' THEN 'failed' ELSE 'queued' END,
       attempts = j.attempts + CASE s.outcome WHEN 'complete' THEN 0 ELSE 1 END,
       run_at = CASE s.outcome WHEN 'retry' THEN s.run_at ELSE j.run_at END,
       last_error = CASE s.outcome WHEN 'complete' THEN j.last_error ELSE s.error END,
       locked_until = NULL, lease = NULL, locked_by = NULL
     FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[]) AS s(id, lease, outcome, run_at, error)
     WHERE j.id = s.id AND j.lease = s.lease AND j.state = 'queued'
     RETURNING j.id, s.lease`,
    [
      list.map((s) => s.job.id),
      list.map((s) => s.job.lease),
      list.map((s) => s.outcome),
      list.map((s) => (s.outcome === 'retry' ? s.runAt : null)),
      list.map((s) => (s.outcome === 'complete' ? null : s.error)),
    ],
  );
  return new Set(r.rows.map((row) => settlementKey(row)));
}

/** Settles one job under its lease (also inside another repository's transaction); false when the claim is no longer current. */
export async function settleOne(q: Queryable, s: JobSettlement): Promise<boolean> {
  let r;
  if (s.outcome === 'complete') {
    r = await q.query(`UPDATE jobs SET state = 'done', locked_until = NULL, lease = NULL, locked_by = NULL WHERE ${CURRENT}`, [s.job.id, s.job.lease]);
  } else if (s.outcome === 'retry') {
    r = await q.query(
      `UPDATE jobs SET attempts = attempts + 1, run_at = $3, locked_until = NULL, lease = NULL, locked_by = NULL, last_error = $4 WHERE ${CURRENT}`,
      [s.job.id, s.job.lease, s.runAt, s.error],
    );
  } else {
    r = await q.query(
      `UPDATE jobs SET state = 'failed', attempts = attempts + 1, locked_until = NULL, lease = NULL, locked_by = NULL, last_error = $3 WHERE ${CURRENT}`,
      [s.job.id, s.job.lease, s.error],
    );
  }
  return (r.rowCount ?? 0) > 0;
}

/**
 * Past full caps: the due jobs at the head of each group (GROUP_FIELD) but the full ones, the
 * first `scan` of them by age (SQL over the claim's parameters, `$1` its kinds). Each group is
 * found by one step along `jobs_group_due` (a loose index scan) and its head read by one range of
 * it, so the walk costs what the groups number, not what the full webhooks' backlogs in front of
 * them hold. Rows of another cap's full values are left out after each head is read (a webhook's
 * deliveries share their account), so that a full account's backlog is not walked either.
 */
function groupHeads(walk: GroupWalk, caps: readonly JobCap[], param: (value: unknown) => string, scan: number): string {
  const group = `(payload->>'${GROUP_FIELD}')`;
  const kind = '($1::text[])[1]';
  const busy = param(JSON.stringify(Object.fromEntries(caps[0].busy)));
  const room = `greatest(0, least(${param(scan)}, ${param(caps[0].max)} - coalesce((${busy}::jsonb ->> grp.v)::int, 0)))`;
  const others = walk.otherFull.map(({ cap, values }) => `AND coalesce(h.payload->>'${caps[cap].field}', '') <> ALL(${param([...values])}::text[])`).join(' ');
  return `WITH RECURSIVE grp(v) AS (
      (SELECT ${group} FROM jobs WHERE state = 'queued' AND kind = ${kind} AND ${group} IS NOT NULL ORDER BY ${group} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${group} FROM jobs WHERE state = 'queued' AND kind = ${kind} AND ${group} > grp.v ORDER BY ${group} LIMIT 1) FROM grp WHERE grp.v IS NOT NULL
    )
    SELECT h.id, h.payload, h.run_at FROM grp CROSS JOIN LATERAL (
      SELECT id, payload, run_at FROM jobs
      WHERE state = 'queued' AND kind = ${kind} AND ${group} = grp.v AND run_at <= now() AND (locked_until IS NULL OR locked_until <= now())
      ORDER BY run_at LIMIT ${room}
    ) h
    WHERE grp.v IS NOT NULL AND grp.v <> ALL(${param(walk.fullGroups)}::text[]) ${others}
    ORDER BY h.run_at LIMIT ${param(scan)}`;
}
