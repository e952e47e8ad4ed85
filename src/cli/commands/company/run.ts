// `bolag company`: GET /companies/{id}, shown down the page on a terminal, JSON otherwise.
import type { CompanyOptions } from './options.js';
import { OutputSink, terminalView } from '../../output/sink.js';
import { verticalTable } from '../../output/vertical.js';
import { interruptible } from '../../paging/interruptible.js';

export async function companyRun(opts: CompanyOptions): Promise<void> {
  const { io, interrupt } = opts.factory;
  const client = await opts.factory.httpClient();
  const res = await interruptible(
    client.get<{ data: Record<string, unknown> }>(`/companies/${encodeURIComponent(opts.id)}`, {
      query: { expand: opts.expand ? 'latest_financials' : undefined },
      signal: interrupt,
    }),
    interrupt,
    () => 'Interrupted.',
  );
  const company = res.data.data;
  const text = opts.format === 'table' ? verticalTable(company, io.columns(), io.color) : JSON.stringify(company, null, 2) + '\n';
  await new OutputSink(io.stdout, terminalView(opts.format, io.stdoutIsTTY)).write(text);
}
