/**
 * Whether an error says that something the request needs (PostgreSQL, the event log, the disk)
 * cannot serve right now, rather than that the request or the code is wrong: such a failure is
 * retriable, and a client is told so (503 / -1016) instead of being given an internal error.
 */
const SYSTEM_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EROFS',
  'EVENT_LOG_UNAVAILABLE',
]);
/** SQLSTATE classes 08 (connection exception) and 53 (insufficient resources: 53100 disk full), and 57P01-57P03 (shutting down, cannot connect now). */
const SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[1-3])$/;
/** What node-postgres says when a connection breaks or the pool cannot get one; these carry no code. */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, driverError, cause } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (SYSTEM_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  return isDependencyUnavailable(driverError, depth + 1) || isDependencyUnavailable(cause, depth + 1);
}
