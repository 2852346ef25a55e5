// PostgreSQL cannot store every JavaScript string: NUL is refused in text (22021) and in jsonb
// (22P05), and so is an unpaired UTF-16 surrogate in jsonb (and silently mangled to U+FFFD in
// text). The one rule for such text, applied to every request's body and query
// (storable-text.interceptor.ts) and to decoded cursors, so it is a 400 naming where it was.

const NUL = /\u0000/;
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface UnstorableText {
  /** Dotted path to the string (or object key) as the validation errors name fields: `tags.a`, `entries.0.description`. */
  field: string;
  problem: string;
}

/** Why PostgreSQL would refuse this string, or undefined if it can store it. */
function problemOf(text: string): string | undefined {
  if (NUL.test(text)) return 'holds a NUL character (\\u0000), which cannot be stored';
  if (UNPAIRED_SURROGATE.test(text)) return 'holds an unpaired UTF-16 surrogate, which cannot be stored';
  return undefined;
}

// A key that itself holds such a character is named by its JSON escape, so the message stays readable.
const printable = (key: string) => JSON.stringify(key).slice(1, -1);

/**
 * The first string or object key in a parsed JSON value (or query object) that PostgreSQL cannot
 * store. Walks with its own stack: a body may nest deeper than the call stack allows.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
  while (pending.length) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return { field: path, problem };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: join(path, String(i)) });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const problem = problemOf(key);
        if (problem) return { field: join(path, printable(key)), problem: `key ${problem}` };
        pending.push({ value: child, path: join(path, key) });
      }
    }
  }
  return undefined;
}
