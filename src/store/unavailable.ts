// One place decides whether a storage error means "the database is briefly out of reach" (try
// again soon) rather than "this operation is wrong" (a bug, a constraint). The HTTP face maps the
// first to 503 with Retry-After; the workers back off and try again instead of failing the job.

/** Socket-level failures reaching the database (PostgreSQL over TCP). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of a server going away or not taking connections: admin_shutdown,
 * crash_shutdown, cannot_connect_now (starting up, in recovery), too_many_connections; and of a
 * transaction that lost a race with another, where running it again is the remedy:
 * serialization_failure, deadlock_detected. Also a database that is not there (invalid_catalog_name,
 * database_dropped: dropped or being restored), which no retry of the operation fixes but which
 * no request or job of ours caused either. Class 08 (connection exceptions) is matched below.
 */
const PG_STATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01', '3D000', '57P04']);

/** What node-postgres says when a connection ends or cannot be had in time (it sets no code). */
const PG_MESSAGES = [
  /^Connection terminated/i, // "… unexpectedly", "… due to connection timeout"
  /timeout exceeded when trying to connect/i, // the pool's connectionTimeoutMillis
  /Client has encountered a connection error and is not queryable/i,
  /Query read timeout/i,
];

/** SQLite: another writer held the lock past the busy timeout. */
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT']);

/** Seconds a client should wait before trying again (the Retry-After of the 503). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** True when `e` (or what caused it) says the database could not be reached or was busy: transient. */
export function isStoreUnavailable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || PG_STATES.has(code) || SQLITE_CODES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    const message = (cur as { message?: unknown }).message;
    if (typeof message === 'string' && PG_MESSAGES.some((p) => p.test(message))) return true;
    // AggregateError (a dual-stack connect that failed on every address).
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(isStoreUnavailable)) return true;
  }
  return false;
}
