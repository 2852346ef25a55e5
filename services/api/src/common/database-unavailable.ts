// Whether an error means PostgreSQL cannot be reached right now (stopped, restarting, the
// network to it down), as opposed to a query that failed: such a request is answered 503
// with the house error body and a Retry-After, and the API process carries on; its pool
// connects again once the database is back. drizzle wraps the driver's error (`cause`).
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or
// shutting down), and class 08, connection exceptions.
const SERVER_GOING = /^(57P0[123]|08...)$/;
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not queryable|the database system is (starting up|shutting down)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_CODES.has(code) || SERVER_GOING.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before it tries again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
