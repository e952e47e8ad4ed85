// One page of GET /companies, as parsed records (table, csv, json) or as the raw bytes of
// each record (jsonl: no decode, parse and re-serialise on the way from socket to stdout).
import { type HttpClient, parseJsonAnswer, type QueryInput } from '../../http-client.js';
import type { Page } from '../../paging/paginate.js';
import { splitCompanyPage } from '../../paging/raw-page.js';
import type { Row } from '../../output/table-columns.js';

interface Pagination {
  limit: number;
  has_more: boolean;
  next_cursor?: string;
  total?: number;
  total_estimated?: boolean;
}

function toPage<T>(rows: T[], p: Pagination | undefined): Page<T> {
  return { rows, hasMore: Boolean(p?.has_more), nextCursor: p?.next_cursor, total: p?.total, totalEstimated: p?.total_estimated };
}

export async function fetchRecords(client: HttpClient, query: QueryInput, signal: AbortSignal): Promise<Page<Row>> {
  const res = await client.get<{ data: Row[]; pagination: Pagination }>('/companies', { query, signal });
  return toPage(res.data.data, res.data.pagination);
}

export async function fetchRawRecords(client: HttpClient, query: QueryInput, signal: AbortSignal): Promise<Page<Buffer>> {
  const res = await client.requestBytes('GET', '/companies', { query, signal });
  const raw = splitCompanyPage(res.data);
  if (raw) return toPage(raw.rows, raw.rest.pagination as Pagination);
  // Not the compact shape we expected: take the slow, sure path.
  const body = parseJsonAnswer<{ data: Row[]; pagination: Pagination }>(res.data.toString('utf8'), 'GET', '/companies', res);
  return toPage(
    body.data.map((r) => Buffer.from(JSON.stringify(r))),
    body.pagination,
  );
}
