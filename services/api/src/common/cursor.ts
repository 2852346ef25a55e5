// Opaque pagination cursors: base64url JSON of the last row's sort key. A tampered cursor is a 400.
import { Invalid } from './errors.js';

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
  if (!check(value)) throw new Invalid('cursor is not a cursor returned by this API', undefined, 'invalid_cursor');
  return value;
}
