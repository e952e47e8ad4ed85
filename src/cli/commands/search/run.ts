// `bolag search`: fetches pages (prefetching the next while printing the current), writes
// them in the chosen format, and on Ctrl-C says which cursor resumes the run.
import type { SearchOptions } from './options.js';
import type { HttpClient, QueryInput } from '../../http-client.js';
import { OutputSink, terminalView } from '../../output/sink.js';
import { paginate, type Page } from '../../paging/paginate.js';
import { interruptible } from '../../paging/interruptible.js';
import { makeFormatter } from './formatter-for.js';
import { fetchRawRecords, fetchRecords } from './fetch-pages.js';
import { formatNumber } from '../../output/swedish.js';
import { CancelError, CliError } from '../../errors/index.js';

/** Rows per request when following pages and no --limit was given: the API's maximum. */
const FOLLOW_PAGE_SIZE = 100;

interface Writer<T> {
  start(): string;
  page(rows: readonly T[]): string | Uint8Array;
  end(): string;
}

type Fetch<T> = (client: HttpClient, query: QueryInput, signal: AbortSignal) => Promise<Page<T>>;

export async function searchRun(opts: SearchOptions): Promise<void> {
  const { factory } = opts;
  const client = await factory.httpClient();
  if (opts.format === 'jsonl') {
    const { RawJsonlFormatter } = await import('../../output/raw-jsonl.js');
    return streamPages(opts, client, fetchRawRecords, new RawJsonlFormatter());
  }
  return streamPages(opts, client, fetchRecords, await makeFormatter(opts, factory.io));
}

async function streamPages<T>(opts: SearchOptions, client: HttpClient, fetch: Fetch<T>, writer: Writer<T>): Promise<void> {
  const { factory } = opts;
  const { io, interrupt } = factory;
  const { cursor: startCursor, limit, include_total, ...query } = opts.params;

  // The total is counted once, on the first request of a run, not again for every page.
  let requests = 0;
  const fetchPage = (cursor: string | undefined, pageLimit: number | undefined, extra: QueryInput = {}) =>
    fetch(client, { ...query, ...(requests++ === 0 ? { include_total } : {}), ...extra, cursor, limit: pageLimit }, interrupt);

  if (opts.count) {
    const page = await interruptible(fetchPage(startCursor as string | undefined, 1, { include_total: true }), interrupt, () => 'Interrupted.');
    await new OutputSink(io.stdout).write(`${page.total ?? 0}\n`);
    if (page.totalEstimated) factory.notice('(estimated: counting took longer than 1 s)');
    return;
  }

  const follow = opts.all || opts.max !== undefined;
  const pageSize = limit !== undefined ? Number(limit) : follow ? FOLLOW_PAGE_SIZE : undefined;
  const sink = new OutputSink(io.stdout, terminalView(opts.format, io.stdoutIsTTY));
  const pages = paginate(fetchPage, { cursor: startCursor as string | undefined, follow, max: opts.max, pageSize });

  let resume = startCursor as string | undefined;
  const resumeHint = () => (resume ? `Interrupted; resume with: --cursor ${resume}` : 'Interrupted.');
  let written = 0;
  let last: Page<T> | undefined;
  let total: { n: number; estimated: boolean } | undefined;
  try {
    await sink.write(writer.start());
    for (;;) {
      const step = await interruptible(pages.next(), interrupt, resumeHint);
      if (step.done) break;
      last = step.value;
      if (total === undefined && last.total !== undefined) total = { n: last.total, estimated: Boolean(last.totalEstimated) };
      await sink.write(writer.page(last.rows));
      written += last.rows.length;
      resume = last.nextCursor;
      if (interrupt.aborted) throw new CancelError(resumeHint());
    }
    await sink.write(writer.end());
  } catch (error) {
    // Interrupted between pages: the pages written are whole, so the document is closed too
    // (--format json: its array), and what was saved parses; the cursor resumes after it.
    if (error instanceof CancelError) await sink.write(writer.end()).catch(() => undefined);
    // A later page that failed (a 500, the network): what was written stays, and the cursor
    // after it resumes the run, as after Ctrl-C.
    else if (error instanceof CliError && written > 0 && resume && resume !== startCursor) {
      error.hint = `${error.hint ? `${error.hint}; ` : ''}resume with: --cursor ${resume}`;
    }
    throw error;
  } finally {
    await pages.return();
  }

  if (written === 0 && io.stdoutIsTTY) factory.notice('No companies matched.');
  const stoppedEarly = last?.hasMore && last.nextCursor;
  if (stoppedEarly && (!follow || (opts.max !== undefined && written >= opts.max))) {
    const of = total ? ` of ${total.estimated ? '~' : ''}${formatNumber(total.n)}` : '';
    const noun = of === '' && written === 1 ? 'company' : 'companies';
    factory.notice(`Showed ${formatNumber(written)}${of} ${noun}; more with: --cursor ${last?.nextCursor}${follow ? '' : ' (or --all)'}`);
  } else if (total && io.stdoutIsTTY) {
    factory.notice(`${formatNumber(written)} of ${total.estimated ? '~' : ''}${formatNumber(total.n)} companies`);
  }
}
