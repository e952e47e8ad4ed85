// Whether an import should try ImportOptions.matchesStored on the next batch. Matching costs a
// read and a serialisation per line, repaid only when most lines match (a re-imported export).
// A file whose lines mostly do not (an export of another register, or of this one before a week
// of changes) would pay it for nothing: after a batch that matched less than half of the lines
// whose company it read, the next batches go straight to the full comparison, and one batch in
// PAUSE tries again.
import { normalizeOrgNr } from '../core/orgnr.js';
import { type ImportRecord, repeatedKeys, type StoredCompany } from './import-types.js';

const PAUSE = 8;

export class MatchProbe {
  private skip = 0;

  /** True when this batch should try to match its lines. */
  shouldTry(): boolean {
    if (this.skip === 0) return true;
    this.skip--;
    return false;
  }

  /** What the batch that tried found: the lines whose stored company was read, and how many matched. */
  tried(lines: number, matched: number): void {
    if (lines > 0 && matched * 2 < lines) this.skip = PAUSE - 1;
  }
}

/** Each line's key when it can be matched unparsed (read with its text), else null. */
export function matchHeads(batch: readonly ImportRecord[]): (string | null)[] {
  return batch.map((r) => (r.key !== undefined && r.text !== undefined ? r.key : null));
}

/**
 * The batch less its lines that are their stored company exactly (ImportOptions.matchesStored),
 * given the companies the store read for `heads` (by org nr); `unchanged` is called with each
 * settled company's rowid. A matching line is the stored record, so its key is its head's; every
 * other line is parsed here, in order (a line that is not JSON stops the import here, as it did
 * when read). The store's part is only the read, which SQLite makes at once and PostgreSQL awaits.
 */
export function settleMatching<R extends { org_nr: string; rowid: number }>(
  batch: ImportRecord[],
  heads: readonly (string | null)[],
  stored: ReadonlyMap<string, R>,
  asCompany: (row: R) => StoredCompany,
  matches: (record: ImportRecord, existing: StoredCompany) => boolean,
  unchanged: (rowid: number) => void,
  probe: MatchProbe,
): ImportRecord[] {
  const matching = batch.map((r, i) => {
    const row = heads[i] === null ? undefined : stored.get(heads[i]!);
    return row !== undefined && matches(r, asCompany(row));
  });
  const keys = batch.map((r, i) => (matching[i] ? heads[i] : normalizeOrgNr(String(r.data.org_nr ?? ''))));
  // A key the batch repeats is planned in order: an earlier line may change what a later one matched.
  const repeated = repeatedKeys(keys);
  const rest = batch.filter((_, i) => {
    if (!matching[i] || repeated.has(keys[i]!)) return true;
    unchanged(stored.get(keys[i]!)!.rowid);
    return false;
  });
  probe.tried(stored.size, batch.length - rest.length);
  return rest;
}
