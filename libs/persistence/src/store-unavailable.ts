/**
 * Is this error "PostgreSQL is not there right now" rather than a fault of the request or the job?
 * True for a refused or dropped connection, a server shutting down or starting up, and the pg pool's
 * connect timeout; false for everything else (a constraint, a syntax error, bad input). The API
 * answers these with 503 service_unavailable and Retry-After; the workers put the job back to wait
 * (without spending an attempt) until the store answers again (docs/operations.md, "Outages").
 *
 * TypeORM's QueryFailedError copies the driver's `code` and keeps it as `driverError`; a failed pool
 * connect comes through unwrapped (the socket's ECONNREFUSED), so both, and `cause`, are looked at.
 *
 * A socket error names the port it tried (`connect ECONNREFUSED 127.0.0.1:783`). With `databasePort`
 * given, such an error counts only when it is the database's port: spamd or a link's server being down
 * is a fault of that step (normal attempts), not a reason to hold the job for WORKER_STORE_RETRY_MS.
 */
export function isStoreUnavailable(error: unknown, databasePort?: number, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, cause, port } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; port?: unknown };
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return databasePort === undefined || typeof port !== 'number' || port === databasePort;
  if (typeof code === 'string' && (SQLSTATES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  return isStoreUnavailable(driverError, databasePort, depth + 1) || isStoreUnavailable(cause, databasePort, depth + 1);
}

/** The port of a postgres:// URL (5432 when it names none); undefined when the URL cannot be read. */
export function databasePortOf(url: string): number | undefined {
  try {
    const parsed = new URL(url);
    return parsed.port ? Number(parsed.port) : 5432;
  } catch {
    return undefined;
  }
}

/** Socket errors of a connection that cannot be made or was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** PostgreSQL's SQLSTATEs of the same kind. */
const SQLSTATES = new Set([
  // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down),
  // 53300 too_many_connections; class 08 (connection exceptions) is matched by prefix above.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** node-postgres raises these without a code. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
];
