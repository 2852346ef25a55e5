// The data browser's RESP pieces without an engine: replies read in any chunking with bounded
// memory (a bulk's true length kept, its bytes cut), rendered as redis-cli prints them, and
// every argument framed as one bulk string, whatever it holds.
import { describe, expect, it } from 'vitest';
import { ReplyReader, ProtocolError, type Reply } from '../src/data-browser/resp-reader.js';
import { renderForCli } from '../src/data-browser/resp-render.js';
import { encodeCommand } from '../src/data-browser/engine-session.js';
import { shownText } from '../src/data-browser/shown-text.js';
import { refusedCommand, auditNameOf } from '../src/data-browser/command-rules.js';
import { editCommand } from '../src/data-browser/key-edits.js';

const LIMITS = { bulkBytes: 8, totalBytes: 20, items: 5 };

/** Feeds `wire` in chunks of `size` bytes; the replies read. */
function read(wire: string | Buffer, size = 1, limits = LIMITS): Reply[] {
  const bytes = Buffer.isBuffer(wire) ? wire : Buffer.from(wire, 'latin1');
  const reader = new ReplyReader(limits);
  const out: Reply[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    reader.feed(bytes.subarray(at, at + size));
    let reply;
    while ((reply = reader.take())) out.push(reply);
  }
  return out;
}

describe('ReplyReader', () => {
  it('reads every RESP2 type in any chunking', () => {
    const wire = '+OK\r\n-ERR no\r\n:-42\r\n$3\r\na\r\n\r\n$-1\r\n*-1\r\n*0\r\n*2\r\n$1\r\nx\r\n*1\r\n:1\r\n';
    for (const size of [1, 2, 3, 7, 1000]) {
      expect(read(wire, size)).toEqual([
        { kind: 'simple', text: 'OK' },
        { kind: 'error', text: 'ERR no' },
        { kind: 'integer', value: '-42' },
        { kind: 'bulk', bytes: Buffer.from('a\r\n'), length: 3 },
        { kind: 'nil' },
        { kind: 'nil' },
        { kind: 'array', items: [], length: 0 },
        { kind: 'array', items: [{ kind: 'bulk', bytes: Buffer.from('x'), length: 1 }, { kind: 'array', items: [{ kind: 'integer', value: '1' }], length: 1 }], length: 2 },
      ]);
    }
  });

  it('keeps the first bytes of a long bulk and its true length, and at most `items` elements', () => {
    const big = 'x'.repeat(100_000);
    expect(read(`$${big.length}\r\n${big}\r\n+next\r\n`, 4096)).toEqual([{ kind: 'bulk', bytes: Buffer.from('xxxxxxxx'), length: 100_000 }, { kind: 'simple', text: 'next' }]);
    const many = `*1000\r\n${':7\r\n'.repeat(1000)}`;
    const [array] = read(many, 64) as [Extract<Reply, { kind: 'array' }>];
    expect(array.length).toBe(1000);
    expect(array.items).toHaveLength(5);
    // The byte budget spans the reply: later bulks keep what is left, then nothing.
    const [three] = read('*3\r\n$8\r\naaaaaaaa\r\n$8\r\nbbbbbbbb\r\n$8\r\ncccccccc\r\n', 5) as [Extract<Reply, { kind: 'array' }>];
    expect(three.items.map((i) => (i as { bytes: Buffer }).bytes.toString())).toEqual(['aaaaaaaa', 'bbbbbbbb', 'cccc']);
  });

  it('refuses what is not RESP2 instead of guessing', () => {
    expect(() => read('?what\r\n', 100)).toThrow(ProtocolError);
    expect(() => read(':12a\r\n', 100)).toThrow(ProtocolError);
    expect(() => read('+no-cr\n', 100)).toThrow(ProtocolError);
    expect(() => read(`+${'a'.repeat(70_000)}`, 4096)).toThrow(/too long/);
    expect(() => read('*1\r\n'.repeat(40), 100)).toThrow(/deep/);
  });
});

describe('renderForCli', () => {
  const r = (wire: string) => renderForCli(read(wire, 1000, { bulkBytes: 1 << 20, totalBytes: 1 << 20, items: 1000 })[0]!);
  it('prints as redis-cli prints on a terminal', () => {
    expect(r('+OK\r\n')).toBe('OK');
    expect(r('-WRONGTYPE nope\r\n')).toBe('(error) WRONGTYPE nope');
    expect(r(':3\r\n')).toBe('(integer) 3');
    expect(r('$-1\r\n')).toBe('(nil)');
    expect(r('*0\r\n')).toBe('(empty array)');
    expect(r('$6\r\na"b\n\x00\xff\r\n')).toBe('"a\\"b\\n\\x00\\xff"');
    expect(r('*2\r\n$1\r\na\r\n*2\r\n$1\r\nb\r\n:1\r\n')).toBe('1) "a"\n2) 1) "b"\n   2) (integer) 1');
    const ten = `*10\r\n${'$1\r\nv\r\n'.repeat(10)}`;
    expect(r(ten).split('\n').slice(8)).toEqual([' 9) "v"', '10) "v"']);
  });

  it('says where the reader cut, with the true sizes', () => {
    const cut = read(`*3\r\n$20\r\n${'y'.repeat(20)}\r\n:1\r\n:2\r\n`, 1000, { bulkBytes: 4, totalBytes: 100, items: 2 })[0]!;
    expect(renderForCli(cut)).toBe('1) "yyyy" ... (20 bytes in all, 4 shown)\n2) (integer) 1\n... (1 more of 3 not shown)');
  });
});

describe('arguments are data', () => {
  it('frames each argument as one bulk string, CRLF and all', () => {
    const payload = 'k\r\n*1\r\n$8\r\nFLUSHALL\r\n';
    expect(encodeCommand(['SET', payload, '$(rm -rf /)']).toString('latin1')).toBe(
      `*3\r\n$3\r\nSET\r\n$${payload.length}\r\n${payload}\r\n$11\r\n$(rm -rf /)\r\n`,
    );
    // Read back as the engine would: three arguments, the payload whole.
    const [frame] = read(encodeCommand(['SET', payload, 'v']), 3, { bulkBytes: 1000, totalBytes: 1000, items: 10 }) as [Extract<Reply, { kind: 'array' }>];
    expect(frame.items.map((i) => (i as { bytes: Buffer }).bytes.toString('latin1'))).toEqual(['SET', payload, 'v']);
  });

  it('builds each edit from its own fields, and names what an edit lacks or does not take', () => {
    expect(editCommand({ op: 'hset', key: 'h "1"', field: 'f\nx', value: '`id`' })).toEqual(['HSET', 'h "1"', 'f\nx', '`id`']);
    expect(editCommand({ op: 'zadd', key: 'z', member: 'm', score: 1.5 })).toEqual(['ZADD', 'z', '1.5', 'm']);
    expect(editCommand({ op: 'set', key: 's', value: 'v' })).toEqual(['SET', 's', 'v', 'KEEPTTL']);
    expect(() => editCommand({ op: 'hset', key: 'h', value: 'v' })).toThrow(/hset takes field, value/);
    expect(() => editCommand({ op: 'set', key: 's', value: 'v', member: 'm' })).toThrow(/set takes value/);
  });

  it('refuses connection-state commands and audits only a command-like name', () => {
    expect(refusedCommand(['auth', 'other', 'pw'])).toMatch(/AUTH is not run/);
    expect(refusedCommand(['MULTI'])).toMatch(/one command at a time/);
    expect(refusedCommand(['client', 'reply', 'off'])).toMatch(/CLIENT REPLY/);
    expect(refusedCommand(['GET', 'auth'])).toBeUndefined();
    expect(auditNameOf(['hset', 'k', 'f', 'v'])).toBe('HSET');
    expect(auditNameOf(['my secret value'])).toBe('command');
  });
});

describe('shownText', () => {
  it('shows UTF-8 as text, anything else escaped and marked binary, a cut inside a character still text', () => {
    expect(shownText(Buffer.from('héllo'))).toEqual({ text: 'héllo', length: 6, truncated: false, binary: false });
    expect(shownText(Buffer.from([0x61, 0xff, 0x00]))).toEqual({ text: 'a\\xff\\x00', length: 3, truncated: false, binary: true });
    expect(shownText(Buffer.from('é').subarray(0, 1), 2)).toMatchObject({ truncated: true, binary: false, length: 2 });
  });
});
