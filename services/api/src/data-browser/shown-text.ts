// Bytes from the engine as the browser shows them: UTF-8 text as it is, anything else escaped as
// redis-cli escapes it (\n, \", \xHH ...) and marked binary, so the console never edits a value
// it could not write back byte for byte.
import type { Reply } from './resp-reader.js';

/** A string, field, member or element of a value, possibly cut (DATA_VALUE_BYTES_SHOWN). */
export interface ShownText {
  text: string;
  /** Its true length in bytes. */
  length: number;
  /** Only the first bytes are in `text`. */
  truncated: boolean;
  /** Not UTF-8: `text` is escaped as redis-cli shows it. */
  binary: boolean;
}

const NAMED: Record<number, string> = { 0x5c: '\\\\', 0x22: '\\"', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x07: '\\a', 0x08: '\\b' };

/** sdscatrepr of Redis' sds.c, without the quotes: printable ASCII as is, the rest escaped. */
export function escapeBytes(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    const named = NAMED[b];
    if (named) out += named;
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** UTF-8 text, or undefined; a cut value may end inside a character. */
function utf8(bytes: Buffer, cut: boolean): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: cut });
  } catch {
    return undefined;
  }
}

export function shownText(bytes: Buffer, length = bytes.length): ShownText {
  const truncated = length > bytes.length;
  const text = utf8(bytes, truncated);
  return text === undefined ? { text: escapeBytes(bytes), length, truncated, binary: true } : { text, length, truncated, binary: false };
}

/** A bulk (or simple string) reply as shown text; undefined for anything else. */
export function textOf(reply: Reply | undefined): ShownText | undefined {
  if (reply?.kind === 'bulk') return shownText(reply.bytes, reply.length);
  if (reply?.kind === 'simple') return shownText(Buffer.from(reply.text));
  return undefined;
}
