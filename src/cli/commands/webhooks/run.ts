// `bolag webhooks …`: one request each, the answer shown as a table on a terminal and as
// JSON (records) or JSONL (lists) otherwise.
import type { WebhooksOptions } from './options.js';
import { OutputSink, terminalView } from '../../output/sink.js';
import { verticalTable } from '../../output/vertical.js';
import { interruptible } from '../../paging/interruptible.js';
import type { Row } from '../../output/table-columns.js';
import { deliveryTable, webhookRecord, webhookTable } from './format.js';
import { terminalText } from '../../output/terminal-text.js';
import { randomUUID } from 'node:crypto';
import { InvalidRequestError } from '../../errors/index.js';

interface Page {
  data: Row[];
  pagination?: { has_more: boolean; next_cursor?: string };
}

const path = (id: string, rest = '') => `/webhooks/${encodeURIComponent(id)}${rest}`;

/**
 * An http:// URL refused by the local register, which has no --allow-insecure-webhooks of its
 * own even on the database of a server started with it: the error, with where to send it instead.
 */
async function plainHttpRefusedLocally(e: unknown, url: string, local: () => Promise<boolean>): Promise<InvalidRequestError | undefined> {
  if (!(e instanceof InvalidRequestError) || e.param !== 'url' || !/^http:/i.test(url) || !(await local())) return undefined;
  const hint = 'the local register takes https only; a bolag serve started with --allow-insecure-webhooks takes http://: create it through that server (bolag --profile local webhooks create …, or --base-url)';
  return new InvalidRequestError(e.message, { method: e.method, path: e.path, status: e.status, code: e.code, requestId: e.requestId, param: e.param }, { hint });
}

export async function webhooksRun(opts: WebhooksOptions): Promise<void> {
  const { factory, action, format } = opts;
  const { io, interrupt } = factory;
  const client = await factory.httpClient();
  const sink = new OutputSink(io.stdout, terminalView(format, io.stdoutIsTTY));
  const wait = <T>(p: Promise<T>) => interruptible(p, interrupt, () => 'Interrupted.');

  const showRecord = async (w: Row) => {
    if (format === 'table') await sink.write(verticalTable(webhookRecord(w), io.columns(), io.color));
    else await sink.write(JSON.stringify(w, null, format === 'json' ? 2 : undefined) + '\n');
  };
  const showList = async (rows: Row[], table: () => { page(r: readonly Row[]): string }) => {
    if (format === 'table') await sink.write(rows.length ? table().page(rows) : '');
    else if (format === 'json') await sink.write(JSON.stringify(rows, null, 2) + '\n');
    else await sink.write(rows.map((r) => JSON.stringify(r) + '\n').join(''));
  };

  switch (action.kind) {
    case 'create': {
      // With a key of its own, a create the client sends again (a 503, a dropped connection) is
      // answered with the first webhook, not made twice.
      const headers = { 'Idempotency-Key': `cli-${randomUUID()}` };
      const res = await wait(client.post<{ data: Row }>('/webhooks', { url: action.url, events: action.events, filters: action.filters }, { signal: interrupt, headers })).catch(
        async (e: unknown) => {
          throw (await plainHttpRefusedLocally(e, action.url, async () => (await factory.connection()).local)) ?? e;
        },
      );
      await showRecord(res.data.data);
      factory.notice('Keep the secret now: it is not shown again (bolag webhooks rotate-secret makes a new one).');
      return;
    }
    case 'list': {
      // Every page (an account's webhooks fit on one unless the server allows more than 100).
      const rows: Row[] = [];
      let cursor: string | undefined;
      do {
        const query = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
        const res = await wait(client.get<{ data: Row[]; pagination?: { next_cursor?: string } }>(`/webhooks${query}`, { signal: interrupt }));
        rows.push(...res.data.data);
        cursor = res.data.pagination?.next_cursor;
      } while (cursor !== undefined);
      await showList(rows, () => webhookTable(io.columns(), io.color));
      if (rows.length === 0) factory.notice('No webhooks yet: bolag webhooks create --url URL --events TYPES');
      return;
    }
    case 'get': {
      const res = await wait(client.get<{ data: Row }>(path(action.id), { signal: interrupt }));
      return showRecord(res.data.data);
    }
    case 'update': {
      const body: Record<string, unknown> = {};
      if (action.url !== undefined) body.url = action.url;
      if (action.events !== undefined) body.events = action.events;
      if (action.filters !== undefined) body.filters = action.filters;
      if (action.enable) body.status = 'active';
      const res = await wait(client.patch<{ data: Row }>(path(action.id), body, { signal: interrupt }));
      return showRecord(res.data.data);
    }
    case 'delete': {
      const res = await wait(client.delete<{ data: Row }>(path(action.id), { signal: interrupt }));
      if (format === 'table') await sink.write(`Deleted webhook ${action.id}.\n`);
      else await sink.write(JSON.stringify(res.data.data) + '\n');
      return;
    }
    case 'rotate-secret': {
      const res = await wait(client.post<{ data: Row }>(path(action.id, '/rotate-secret'), undefined, { signal: interrupt }));
      await showRecord(res.data.data);
      factory.notice(
        `Keep the new secret now: it is not shown again. Until ${String(res.data.data.previous_secret_expires_at)} deliveries carry signatures with both the secret before this rotation and the new one; a secret older than that (from an earlier rotation within 24 hours) no longer signs.`,
      );
      return;
    }
    case 'test': {
      const res = await wait(client.post<{ data: Row }>(path(action.id, '/test'), undefined, { signal: interrupt }));
      if (format === 'table') {
        await sink.write(`Queued a webhook.test delivery (event ${terminalText(String(res.data.data.event_id))}).\n`);
        factory.notice(`See how it went: bolag webhooks deliveries ${action.id}`);
      } else await sink.write(JSON.stringify(res.data.data) + '\n');
      return;
    }
    case 'deliveries': {
      const rows: Row[] = [];
      const table = deliveryTable(io.columns(), io.color);
      let cursor: string | undefined;
      let shown = false;
      for (;;) {
        const res = await wait(
          client.get<Page>(path(action.id, '/deliveries'), { query: { limit: action.limit ?? (action.all ? 100 : undefined), cursor }, signal: interrupt }),
        );
        const page = res.data.data;
        shown ||= page.length > 0;
        if (format === 'json') rows.push(...page);
        else await showList(page, () => table);
        cursor = res.data.pagination?.next_cursor;
        if (!action.all || !res.data.pagination?.has_more || !cursor) break;
      }
      if (format === 'json') await showList(rows, () => table);
      else if (format === 'table' && !shown) factory.notice('No delivery attempts yet.');
      return;
    }
  }
}
