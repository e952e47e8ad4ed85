// A claim's options (what it leaves out, puts last or caps: ClaimOptions), checked and worked out
// once for both stores. A field's name is written into the SQL, so only plain names pass.
import type { ClaimOptions, JobCap, JobSkip } from './store.js';

/** The name of a payload field, checked to be a plain name (it is written into the SQL). */
export function payloadField(field: string): string {
  if (!/^[a-z_]+$/.test(field)) throw new Error(`invalid payload field ${field}`);
  return field;
}

export function activeSkips(skips: readonly JobSkip[] | undefined): JobSkip[] {
  const active = (skips ?? []).filter((skip) => skip.values.length > 0);
  for (const skip of active) payloadField(skip.field);
  return active;
}

/** A claim's options; past full caps, their full values turned into skips (left out in the query itself). */
export function claimPlan(opts: ClaimOptions): { skips: JobSkip[]; last: JobSkip | undefined; caps: readonly JobCap[] } {
  const caps = opts.caps ?? [];
  for (const cap of caps) payloadField(cap.field);
  const full = opts.pastFull ? caps.map((cap) => ({ field: cap.field, values: [...cap.busy].filter(([, n]) => n >= cap.max).map(([value]) => value) })) : [];
  const [last] = activeSkips(opts.last ? [opts.last] : []);
  return { skips: activeSkips([...(opts.skip ?? []), ...full]), last, caps };
}

/**
 * The payload field that groups the jobs a claim walks past full caps (a webhook's deliveries):
 * both stores index the due jobs of a kind by it (`jobs_group_due`), so the walk reads each
 * group's head, not the backlogs in front of it. It takes two things of the jobs so grouped:
 * each has the field (one without it is found at the head of the queue only), and a group's
 * jobs share the values of the other capped fields (a webhook's deliveries, their account), as
 * those are checked on each group's head only.
 */
export const GROUP_FIELD = 'webhook_id';

/** A walk past full caps, group by group: the groups left out, and each other cap's full values. */
export interface GroupWalk {
  fullGroups: string[];
  /** How many more of a group's jobs the first cap lets the claim take. */
  room(group: string): number;
  otherFull: { cap: number; values: ReadonlySet<string> }[];
}

/**
 * The group walk for a claim past full caps of one kind whose first cap is on GROUP_FIELD, with
 * nothing else to leave out or put last; null for any other claim, which reads in queue order.
 * Jobs without the field are found at the head of the queue only.
 */
export function groupWalkOf(kinds: readonly string[], opts: ClaimOptions): GroupWalk | null {
  const caps = opts.caps ?? [];
  if (!opts.pastFull || kinds.length !== 1 || caps[0]?.field !== GROUP_FIELD || (opts.skip?.length ?? 0) > 0 || opts.last) return null;
  for (const cap of caps) payloadField(cap.field);
  const full = (cap: JobCap) => [...cap.busy].filter(([, n]) => n >= cap.max).map(([value]) => value);
  const room = (group: string) => caps[0].max - (caps[0].busy.get(group) ?? 0);
  return { fullGroups: full(caps[0]), room, otherFull: caps.slice(1).map((cap, i) => ({ cap: i + 1, values: new Set(full(cap)) })) };
}

/**
 * Rows a capped claim reads to pick `limit` from: enough that one webhook's backlog at the head
 * of the queue does not hide the others, few enough to read at every claim.
 */
export function capScan(limit: number): number {
  return Math.min(Math.max(limit, 32), 1000);
}

/** The candidates, in their order, that fit under every cap, up to `limit`. */
export function pickWithinCaps<T extends { payload: Record<string, unknown> }>(candidates: readonly T[], caps: readonly JobCap[], limit: number): T[] {
  const taken = caps.map(() => new Map<string, number>());
  const picked: T[] = [];
  for (const candidate of candidates) {
    if (picked.length >= limit) break;
    const values = caps.map((cap) => {
      const value = candidate.payload[cap.field];
      return typeof value === 'string' ? value : null;
    });
    const fits = caps.every((cap, i) => {
      const value = values[i];
      return value === null || (cap.busy.get(value) ?? 0) + (taken[i].get(value) ?? 0) < cap.max;
    });
    if (!fits) continue;
    values.forEach((value, i) => {
      if (value !== null) taken[i].set(value, (taken[i].get(value) ?? 0) + 1);
    });
    picked.push(candidate);
  }
  return picked;
}
