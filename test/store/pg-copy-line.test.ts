// COPY's text format as the PostgreSQL import and seeder write it (copyLineWriter): every value
// read back by the server exactly, whatever a free-text field holds.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { from as copyFrom } from 'pg-copy-streams';
import { copyLineWriter } from '../../src/store/postgres/company-row.js';
import { DATABASE_URL, PG_SKIP_REASON } from '../helpers/pg.js';

const line = copyLineWriter(['a', 'b', 'n'], ['x']);

describe('copyLineWriter', () => {
  it('writes the row\'s columns, then the second object\'s, tab-separated with \\N for null', () => {
    expect(line({ a: 'one', b: null, n: 12.5 }, { x: undefined })).toBe('one\t\\N\t12.5\t\\N\n');
  });

  it('escapes backslashes, tabs, newlines and carriage returns', () => {
    expect(line({ a: 'a\\b\tc', b: 'd\ne\rf', n: 0 }, { x: '' })).toBe('a\\\\b\\tc\td\\ne\\rf\t0\t\n');
  });
});

describe.skipIf(!DATABASE_URL)(`copyLineWriter's lines read by PostgreSQL ${DATABASE_URL ? '' : PG_SKIP_REASON}`, () => {
  let client: pg.Client;
  beforeAll(async () => {
    client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it('gives back every value as written', async () => {
    const rows = [
      { a: 'Exempel AB', b: 'Storgatan 1', n: 1 },
      { a: 'back\\slash \\N not null', b: 'tab\there', n: -2 },
      { a: 'line\nbreak\r\nCRLF', b: null, n: 3.25 },
      { a: 'åäö ÅÄÖ é ü — ✓', b: '', n: 0 },
      { a: '\\.', b: '\\', n: 4 },
    ];
    const internals = [{ x: 'x' }, { x: null }, { x: '\\t' }, { x: 'ü' }, { x: '' }];
    await client.query('CREATE TEMP TABLE copied (a text, b text, n double precision, x text)');
    const stream = client.query(copyFrom('COPY copied (a, b, n, x) FROM STDIN'));
    await new Promise<void>((resolve, reject) => {
      stream.on('finish', resolve);
      stream.on('error', reject);
      stream.end(rows.map((r, i) => line(r, internals[i])).join(''));
    });
    const back = (await client.query('SELECT a, b, n, x FROM copied')).rows;
    expect(back).toEqual(rows.map((r, i) => ({ ...r, ...internals[i] })));
  });
});
