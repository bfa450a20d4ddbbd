/** True when `err` is PostgreSQL's unique_violation (23505), from pg or PGlite, optionally on a named constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown };
  if (e.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint;
}

/** Node socket errors meaning the database server could not be reached or the connection broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATEs of a database that is shutting down, starting up, crashed, or out of connections. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and knex say these in words only (no code). */
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error and is not queryable|Timeout acquiring a connection|timeout exceeded when trying to connect|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * True when `err` says the database is unreachable or restarting — not that a query was wrong: a refused or
 * dropped connection, PostgreSQL's admin/crash shutdown and cannot-connect-now states (57P01–57P03), too many
 * connections (53300), any connection exception (class 08), knex's pool acquire timeout, or the embedded
 * database's worker thread restarting (KIT_DB_UNAVAILABLE). Follows `cause` and AggregateError's `errors`.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || UNAVAILABLE_STATES.has(e.code) || e.code === 'KIT_DB_UNAVAILABLE') return true;
    if (/^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
