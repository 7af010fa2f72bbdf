// Telling a database that is away from a query that is wrong, and logging either without personal data.
// Drizzle wraps driver errors in DrizzleQueryError, whose message and `params` carry the query's values
// (e-mail addresses, names): those never reach a log.

/** SQLSTATE classes and codes that mean "the server or the connection is gone", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, a fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57P05', // idle_session_timeout
  '53300', // too_many_connections
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  '08P01', // protocol_violation (a connection cut mid-message)
]);

/** Socket errors of a server that is down or a connection that was cut. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Messages node-postgres uses for a lost connection (it sets no code on these). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end on the pool',
  'terminating connection',
];

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    out.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * Why an error looks like a database that cannot be reached right now: 'database' when the server or driver
 * said so (SQLSTATE, node-postgres' own messages), 'socket' when only a socket error says it (which the object
 * store or the mail server can throw as well), null for anything else (a bad query, a bug).
 */
export function unavailability(error: unknown): 'database' | 'socket' | null {
  let socket = false;
  for (const link of chain(error)) {
    if (!link || typeof link !== 'object') continue;
    const { code, message } = link as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return 'database';
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return 'database';
    if (typeof code === 'string' && SOCKET_CODES.has(code)) socket = true;
  }
  return socket ? 'socket' : null;
}

/** Whether the error says the database cannot be reached right now (worth a retry), as opposed to a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailability(error) !== null;
}

/** PostgreSQL quotes the offending value in some messages (`invalid input syntax for type uuid: "…"`). */
function redactValues(message: string): string {
  return message.replace(/(for type [\w ]+|for encoding "[\w-]+"): .*/s, '$1: [value not logged]').slice(0, 300);
}

/**
 * What may be logged of an error: its name, code and the driver's short message, never query parameters
 * or a constraint's `detail` (which quotes the conflicting value). The SQL text without values is kept.
 */
export function loggableError(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error).slice(0, 200), stack: '' };
  const links = chain(error);
  const driver = links.find((link) => link && typeof link === 'object' && typeof (link as { code?: unknown }).code === 'string' && link !== error) as
    | { code: string; message?: string; constraint?: string; table?: string; column?: string; routine?: string }
    | undefined;
  const query = (error as { query?: unknown }).query;
  const own = error as Error & { code?: unknown; statusCode?: unknown };
  const isQueryError = typeof query === 'string';
  return {
    type: error.name,
    // A query error's own message repeats the parameters; the driver's message does not.
    message: isQueryError ? redactValues(driver?.message ?? 'query failed') : error.message,
    ...(typeof own.code === 'string' ? { code: own.code } : driver ? { code: driver.code } : {}),
    ...(typeof own.statusCode === 'number' ? { statusCode: own.statusCode } : {}),
    ...(driver?.constraint ? { constraint: driver.constraint } : {}),
    ...(driver?.table ? { table: driver.table } : {}),
    ...(isQueryError ? { query: query.slice(0, 500) } : {}),
    // The stack's first lines repeat the message (with a query error's parameters): only the frames are kept.
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 12)
      .join('\n'),
  };
}
