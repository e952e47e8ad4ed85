// Whether an import should try ImportOptions.matchesStored on the next batch. Matching costs a
// read and a serialisation per line, repaid only when most lines match (a re-imported export).
// A file whose lines mostly do not (an export of another register, or of this one before a week
// of changes) would pay it for nothing: after a batch that matched less than half of what it
// tried, the next batches go straight to the full comparison, and one batch in PAUSE tries again.
const PAUSE = 8;

export class MatchProbe {
  private skip = 0;

  /** True when this batch should try to match its lines. */
  shouldTry(): boolean {
    if (this.skip === 0) return true;
    this.skip--;
    return false;
  }

  /** What the batch that tried found. */
  tried(lines: number, matched: number): void {
    if (lines > 0 && matched * 2 < lines) this.skip = PAUSE - 1;
  }
}
