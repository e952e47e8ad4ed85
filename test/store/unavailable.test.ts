// Which storage errors mean "the database is out of reach for a moment" (503, workers back off)
// and which do not (a bug or a constraint: 500, the job fails as before).
import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../../src/store/unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['PostgreSQL shutting down (57P01 admin_shutdown)', withCode('57P01')],
    ['PostgreSQL starting up (57P03)', withCode('57P03')],
    ['too many connections (53300)', withCode('53300')],
    ['a class-08 connection exception', withCode('08006')],
    ['a deadlock another transaction won (40P01): run again', withCode('40P01')],
    ['a serialization failure (40001): run again', withCode('40001')],
    ['the database dropped or not there (3D000, 57P04): being restored, not our request\'s fault', withCode('3D000')],
    ['the database dropped under a connection (57P04)', withCode('57P04')],
    ['node-postgres: the connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['node-postgres: the pool gave up waiting', new Error('timeout exceeded when trying to connect')],
    ['node-postgres: a client whose connection broke', new Error('Client has encountered a connection error and is not queryable')],
    ['SQLite: the write lock held past the busy timeout', withCode('SQLITE_BUSY', 'database is locked')],
    ['wrapped, as an export part write wraps it', new Error('Writing an export part failed', { cause: withCode('ECONNRESET') })],
    ['a dual-stack connect that failed on every address', Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {})],
  ])('%s: unavailable', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505')],
    ['a syntax error (42601)', withCode('42601')],
    ['a statement timeout (57014): the query, not the database', withCode('57014')],
    ['a full disk (ENOSPC): a storage error, not a wait', withCode('ENOSPC')],
    ['SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: not unavailable', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});
