// Following cursors: every page, --max, and the next page fetched while the current one prints.
import { describe, expect, it } from 'vitest';
import { paginate, type Page } from '../../src/cli/paging/paginate.js';

function fakePages(total: number, delayMs = 0) {
  const calls: Array<{ cursor?: string; limit?: number; at: number }> = [];
  const fetch = async (cursor: string | undefined, limit: number | undefined): Promise<Page<number>> => {
    calls.push({ cursor, limit, at: Date.now() });
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const start = cursor ? Number(cursor) : 0;
    const size = limit ?? 25;
    const rows = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => start + i);
    const end = start + rows.length;
    return { rows, hasMore: end < total, nextCursor: end < total ? String(end) : undefined };
  };
  return { fetch, calls };
}

async function collect(gen: AsyncGenerator<Page<number>>): Promise<number[]> {
  const out: number[] = [];
  for await (const p of gen) out.push(...p.rows);
  return out;
}

describe('paginate', () => {
  it('follows every page', async () => {
    const { fetch, calls } = fakePages(250);
    expect(await collect(paginate(fetch, { follow: true, pageSize: 100 }))).toEqual([...Array(250).keys()]);
    expect(calls.map((c) => c.cursor)).toEqual([undefined, '100', '200']);
  });

  it('stops at max, asking for no more rows than are left', async () => {
    const { fetch, calls } = fakePages(1000);
    expect(await collect(paginate(fetch, { follow: true, max: 130, pageSize: 100 }))).toEqual([...Array(130).keys()]);
    expect(calls.map((c) => c.limit)).toEqual([100, 30]);
  });

  it('fetches one page only when not following, and resumes from a cursor', async () => {
    const { fetch } = fakePages(100);
    const pages: Page<number>[] = [];
    for await (const p of paginate(fetch, { follow: false, cursor: '40', pageSize: 10 })) pages.push(p);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ rows: [40, 41, 42, 43, 44, 45, 46, 47, 48, 49], hasMore: true, nextCursor: '50' });
  });

  it('asks for the next page before the current one has been consumed', async () => {
    const { fetch, calls } = fakePages(300, 20);
    const gen = paginate(fetch, { follow: true, pageSize: 100 });
    const first = await gen.next();
    expect(first.value?.rows[0]).toBe(0);
    // The consumer has not asked for page 2 yet, but it is already on its way.
    expect(calls).toHaveLength(2);
    await gen.return();
  });

  it('does not leave a rejected prefetch unhandled when the consumer stops', async () => {
    let n = 0;
    const fetch = async (): Promise<Page<number>> => {
      if (++n === 2) throw new Error('boom');
      return { rows: [1], hasMore: true, nextCursor: 'x' };
    };
    const gen = paginate(fetch, { follow: true });
    await gen.next();
    await gen.return();
    await new Promise((r) => setTimeout(r, 10));
  });
});
