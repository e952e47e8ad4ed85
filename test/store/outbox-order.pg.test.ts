// PostgreSQL: outbox rows become visible in sequence order, so the fan-out, which reads after a
// cursor, never passes over an event that a slower transaction commits later.
import { describe, expect, it } from 'vitest';
import { DATABASE_URL, openFreshPgStore, PG_SKIP_REASON } from '../helpers/pg.js';

const event = (id: string) => JSON.stringify({ id, type: 'company.updated', created_at: new Date().toISOString(), data: {} });

describe.skipIf(!DATABASE_URL)('outbox order on PostgreSQL', () => {
  it('a later writer waits for an earlier one, so no lower seq appears after a higher one was read', async () => {
    const store = await openFreshPgStore();
    const first = await store.db.pool.connect();
    const second = await store.db.pool.connect();
    try {
      await first.query('BEGIN');
      await first.query('INSERT INTO outbox (event) VALUES ($1)', [event('evt_first')]);
      await second.query('BEGIN');
      let secondInserted = false;
      const secondInsert = second.query('INSERT INTO outbox (event) VALUES ($1)', [event('evt_second')]).then(() => {
        secondInserted = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(secondInserted).toBe(false); // waits for the first writer
      expect(await store.outbox.readAfter(0, 10)).toEqual([]);
      await first.query('COMMIT');
      await secondInsert;
      await second.query('COMMIT');
      const read = await store.outbox.readAfter(0, 10);
      expect(read.map((e) => e.event.id)).toEqual(['evt_first', 'evt_second']);
      expect(read[0].seq).toBeLessThan(read[1].seq);
    } finally {
      first.release();
      second.release();
      await store.close();
    }
  });
});

if (!DATABASE_URL) describe('outbox order on PostgreSQL', () => it.skip(PG_SKIP_REASON, () => {}));
