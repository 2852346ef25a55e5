// Timestamps as ISO 8601 text in UTC, formatted by PostgreSQL. Milliseconds are what
// Date.prototype.toISOString writes; keyset cursors need the microseconds PostgreSQL keeps, or a
// page would skip the rows created later within the millisecond of its last row.
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

export type IsoPrecision = 'ms' | 'us';

export function isoText(column: AnyColumn | SQL, precision: IsoPrecision = 'ms'): SQL<string> {
  const format = precision === 'us' ? `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'` : `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
  return sql<string>`to_char(${column} AT TIME ZONE 'UTC', ${sql.raw(format)})`;
}
