// `bolag search`: fetches pages (prefetching the next while printing the current), writes
// them in the chosen format, and on Ctrl-C says which cursor resumes the run.
import type { SearchOptions } from '../search.js';
import { OutputSink } from '../../output/sink.js';
import { paginate, type Page } from '../../paging/paginate.js';
import { interruptible } from '../../paging/interruptible.js';
import { makeFormatter } from './formatter-for.js';
import { formatNumber } from '../../output/swedish.js';
import { CancelError } from '../../errors/index.js';
import type { Row } from '../../output/table-columns.js';

interface CompanyPageBody {
  data: Row[];
  pagination: { limit: number; has_more: boolean; next_cursor?: string; total?: number; total_estimated?: boolean };
}

/** Rows per request when following pages and no --limit was given: the API's maximum. */
const FOLLOW_PAGE_SIZE = 100;

export async function searchRun(opts: SearchOptions): Promise<void> {
  const { factory } = opts;
  const { io, interrupt } = factory;
  const client = await factory.httpClient();
  const { cursor: startCursor, limit, ...query } = opts.params;

  // The total is counted once, on the first request of a run, not again for every page.
  let requests = 0;
  const fetchPage = async (cursor: string | undefined, pageLimit: number | undefined, extra: Record<string, string | boolean> = {}): Promise<Page<Row>> => {
    const { include_total, ...rest } = query;
    const res = await client.get<CompanyPageBody>('/companies', {
      query: { ...rest, ...(requests++ === 0 ? { include_total } : {}), ...extra, cursor: cursor as string | undefined, limit: pageLimit },
      signal: interrupt,
    });
    const p = res.data.pagination;
    return { rows: res.data.data, hasMore: p.has_more, nextCursor: p.next_cursor, total: p.total, totalEstimated: p.total_estimated };
  };

  if (opts.count) {
    const page = await interruptible(fetchPage(startCursor as string | undefined, 1, { include_total: true }), interrupt, () => 'Interrupted.');
    await new OutputSink(io.stdout).write(`${page.total ?? 0}\n`);
    if (page.totalEstimated) factory.notice('(estimated: counting took longer than 1 s)');
    return;
  }

  const follow = opts.all || opts.max !== undefined;
  const pageSize = limit !== undefined ? Number(limit) : follow ? FOLLOW_PAGE_SIZE : undefined;
  const formatter = await makeFormatter(opts, io);
  const sink = new OutputSink(io.stdout);
  const pages = paginate(fetchPage, { cursor: startCursor as string | undefined, follow, max: opts.max, pageSize });

  let resume = startCursor as string | undefined;
  const resumeHint = () => (resume ? `Interrupted; resume with: --cursor ${resume}` : 'Interrupted.');
  let written = 0;
  let last: Page<Row> | undefined;
  let total: { n: number; estimated: boolean } | undefined;
  try {
    await sink.write(formatter.start());
    for (;;) {
      const step = await interruptible(pages.next(), interrupt, resumeHint);
      if (step.done) break;
      last = step.value;
      if (total === undefined && last.total !== undefined) total = { n: last.total, estimated: Boolean(last.totalEstimated) };
      await sink.write(formatter.page(last.rows));
      written += last.rows.length;
      resume = last.nextCursor;
      if (interrupt.aborted) throw new CancelError(resumeHint());
    }
    await sink.write(formatter.end());
  } finally {
    await pages.return();
  }

  if (written === 0 && io.stdoutIsTTY) factory.notice('No companies matched.');
  const stoppedEarly = last?.hasMore && last.nextCursor;
  if (stoppedEarly && (!follow || (opts.max !== undefined && written >= opts.max))) {
    const of = total ? ` of ${total.estimated ? '~' : ''}${formatNumber(total.n)}` : '';
    factory.notice(`Showed ${formatNumber(written)}${of} companies; more with: --cursor ${last?.nextCursor}${follow ? '' : ' (or --all)'}`);
  } else if (total && io.stdoutIsTTY) {
    factory.notice(`${formatNumber(written)} of ${total.estimated ? '~' : ''}${formatNumber(total.n)} companies`);
  }
}
