// What hostile-input.test.ts checks after each request: what the database wrote, the error's shape, the log lines;
// and the client addresses and raw HTTP it sends with.
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { queryRows, type DatabaseHandle } from '../../db/client.js';
import { MARKER } from './values.js';

/**
 * Every table's row count and the sum of its rows' xmin (the transaction that wrote each row version): an insert,
 * update or delete changes it, without reading the rows' contents. Rate-limit counters aside (refused attempts count).
 */
export async function fingerprinter(db: DatabaseHandle): Promise<() => Promise<Record<string, string>>> {
  const tables = await queryRows<{ name: string }>(
    db.db,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name <> 'rate_limits' order by table_name`,
  );
  const columns = tables.map(({ name }) => sql`(select count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text from ${sql.identifier(name)}) as ${sql.identifier(name)}`);
  const query = sql`select ${sql.join(columns, sql`, `)}`;
  return async () => (await queryRows<Record<string, string>>(db.db, query))[0]!;
}

export const changedTables = (before: Record<string, string>, after: Record<string, string>) => Object.keys(after).filter((table) => before[table] !== after[table]);

/** Our error shape: `{ error: { code, requestId } }`, the id also in the header. */
export function errorShapeProblem(response: LightMyRequestResponse): string | null {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return `content type ${type || 'none'}`;
  let body: { error?: { code?: unknown; requestId?: unknown } };
  try {
    body = response.json();
  } catch {
    return 'not JSON';
  }
  if (typeof body.error?.code !== 'string' || !/^[a-z][A-Za-z]+$/.test(body.error.code)) return `code ${JSON.stringify(body.error?.code)}`;
  if (typeof body.error.requestId !== 'string' || body.error.requestId !== response.headers['x-request-id']) return 'requestId missing or not the header';
  return null;
}

/**
 * Log lines that hold a submitted value: the marker anywhere, or a query value in the request line. The request
 * line's path itself is left out of the marker search: the path is logged (ids, page names), query values never.
 */
export function linesWithHostileValues(lines: string[]): string[] {
  return lines.filter((line) => {
    const entry = JSON.parse(line) as { req?: { url?: string } };
    const url = entry.req?.url;
    if (url !== undefined) {
      const [path, query = ''] = url.split('?', 2) as [string, string?];
      if (query && query.split('&').some((pair) => !pair.endsWith('=…'))) return true;
      entry.req!.url = path.replace(/markermann/gi, '');
    }
    return JSON.stringify(entry).toLowerCase().includes(MARKER);
  }).map((line) => line.slice(0, 300));
}

let address = 0;
/** A client address of its own for each request, so the per-address limits do not hide the schema's answers. */
export function nextAddress(): string {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
}

/** Sends raw bytes to the server and reads its answer (status, headers, body) until it closes the connection. */
export function rawHttp(port: number, request: Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while we are still writing a request it has already refused.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}
