// Opaque pagination cursors: base64url JSON of the last row's sort key. A tampered cursor is a 400.
import { Invalid } from './errors.js';
import { findUnstorableText } from './storable-text.js';

export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, check: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new Invalid('cursor is not a cursor returned by this API', undefined, 'invalid_cursor');
  }
  // A cursor's values go to PostgreSQL as query parameters: the same text rule as request bodies.
  if (findUnstorableText(value) || !check(value)) throw new Invalid('cursor is not a cursor returned by this API', undefined, 'invalid_cursor');
  return value;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * A cursor timestamp as this API writes it (ISO 8601 UTC, up to microseconds) naming a real
 * instant. Cursors go to PostgreSQL as text, so anything looser that Date.parse accepts ("2026",
 * February 31) would fail there as a 500 instead of a 400 here. So would year 0000: JavaScript
 * reads it as 1 BC, which PostgreSQL only takes written with "BC".
 */
export function isCursorTimestamp(value: string): boolean {
  if (!ISO_UTC.test(value)) return false;
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.getUTCFullYear() >= 1 && parsed.toISOString().slice(0, 19) === value.slice(0, 19);
}
