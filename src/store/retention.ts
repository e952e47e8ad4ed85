// What may be deleted because nobody can ask for it any more (issue 12, retention): finished
// jobs, old delivery attempts, exports long past their links, spent idempotency keys, and
// outbox events every reader has passed. The sweeper (src/retention/) decides the cutoffs.

export interface RetentionCutoffs {
  /** Jobs done or failed whose last run was before this. */
  finishedJobsBefore: Date;
  /** Delivery attempts recorded before this (the delivery log's window). */
  deliveriesBefore: Date;
  /** Exports whose links expired before this, and failed exports created before it. */
  exportsBefore: Date;
  /** Idempotency keys created before this. */
  idempotencyKeysBefore: Date;
  /** Outbox events created before this that every outbox cursor has passed. */
  eventsBefore: Date;
}

export interface SweepResult {
  jobs: number;
  deliveries: number;
  /** Ids of the exports whose records were deleted: their folders go too. */
  exports: string[];
  idempotencyKeys: number;
  events: number;
}

export interface RowCounts {
  queued_jobs: number;
  finished_jobs: number;
  deliveries: number;
  exports: number;
  idempotency_keys: number;
  outbox: number;
}

export interface RetentionRepository {
  /** Deletes what the cutoffs allow, in short transactions of at most `batch` rows each. */
  sweep(cutoffs: RetentionCutoffs, batch: number): Promise<SweepResult>;
  /** Rows per table (jobs split into queued and finished), for benches and tests of retention. */
  rowCounts(): Promise<RowCounts>;
}
