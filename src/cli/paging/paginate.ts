// Follows cursor pages. While the caller prints one page, the next is already being fetched,
// so `--all` streams at the speed of the slower of the two rather than their sum.

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
  nextCursor?: string;
  total?: number;
  totalEstimated?: boolean;
}

export interface PaginateOptions {
  /** Start here (a next_cursor of an earlier run). */
  cursor?: string;
  /** Follow next_cursor until the end (or max). */
  follow: boolean;
  /** Stop after this many rows; pages are asked for no more than what is left. */
  max?: number;
  /** Rows per request; undefined leaves it to the server (25). */
  pageSize?: number;
}

export type FetchPage<T> = (cursor: string | undefined, limit: number | undefined) => Promise<Page<T>>;

/**
 * Yields pages; each yielded page's `nextCursor` is where a new run resumes after that page.
 * The last yielded page has `hasMore` false, or the run stopped at `max` or because
 * `follow` is off (then `hasMore` tells whether more exist).
 */
export async function* paginate<T>(fetchPage: FetchPage<T>, opts: PaginateOptions): AsyncGenerator<Page<T>, void, void> {
  let remaining = opts.max ?? Infinity;
  const limitFor = () => (remaining === Infinity ? opts.pageSize : Math.min(opts.pageSize ?? 100, remaining));
  let next: Promise<Page<T>> | undefined = fetchPage(opts.cursor, limitFor());
  try {
    while (next) {
      const page = await next;
      next = undefined;
      const rows = page.rows.length > remaining ? page.rows.slice(0, remaining) : page.rows;
      remaining -= rows.length;
      const more = page.hasMore && page.nextCursor !== undefined;
      if (opts.follow && more && remaining > 0) {
        next = fetchPage(page.nextCursor, limitFor());
        // Nobody awaits it if the consumer stops early; keep that rejection from going unhandled.
        next.catch(() => undefined);
      }
      yield { ...page, rows };
    }
  } finally {
    next?.catch(() => undefined);
  }
}
