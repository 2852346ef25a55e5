// The command line splits as redis-cli splits it: each argument is bytes, never re-joined.
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../src/command-line.js';

const text = (line: string) => {
  const result = splitCommandLine(line);
  if ('error' in result) return result;
  return result.args.map((a) => Buffer.from(a).toString('latin1'));
};

describe('splitCommandLine', () => {
  it('splits on spaces and keeps quoted words whole', () => {
    expect(text('  SET  key   value ')).toEqual(['SET', 'key', 'value']);
    expect(text('SET "a key" \'a value\'')).toEqual(['SET', 'a key', 'a value']);
    expect(text('SET k ""')).toEqual(['SET', 'k', '']);
    expect(text('')).toEqual([]);
  });

  it('reads escapes in double quotes and only \\\' in single quotes', () => {
    expect(text('SET k "a\\nb\\r\\n\\t\\"q\\" \\\\ \\x41\\x00"')).toEqual(['SET', 'k', 'a\nb\r\n\t"q" \\ A\x00']);
    expect(text("SET k 'it\\'s \\n raw'")).toEqual(['SET', 'k', "it's \\n raw"]);
  });

  it('keeps payloads that would act if evaluated as plain bytes', () => {
    expect(text('SET "$(touch /tmp/x)" "`id`; FLUSHALL\r\nPING"')).toEqual(['SET', '$(touch /tmp/x)', '`id`; FLUSHALL\r\nPING']);
    expect(text('GET a"b c"')).toEqual(['GET', 'ab c']);
  });

  it('refuses unbalanced quotes and a quote that does not end its word', () => {
    expect(text('SET "abc')).toEqual({ error: expect.stringContaining('unbalanced') });
    expect(text("SET 'abc")).toEqual({ error: expect.stringContaining('unbalanced') });
    expect(text('SET "a"b')).toEqual({ error: expect.stringContaining('closing quote') });
  });

  it('encodes non-ASCII text as UTF-8', () => {
    const result = splitCommandLine('SET ключ "値"');
    expect('args' in result && result.args.map((a) => Buffer.from(a).toString('utf8'))).toEqual(['SET', 'ключ', '値']);
  });
});
