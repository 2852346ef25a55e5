import { describe, expect, it } from 'vitest';
import { parseCustomFlags } from '../src/rules.js';

describe('parseCustomFlags', () => {
  it('reads long, short and switch flags into canonical argv', () => {
    expect(parseCustomFlags(['-t', '2', '--clients', '8', '--ratio=1:4', '-R', '--pipeline=16', '--key-prefix='])).toEqual({
      ok: true,
      args: ['--threads=2', '--clients=8', '--ratio=1:4', '--random-data', '--pipeline=16', '--key-prefix='],
      values: { threads: '2', clients: '8', ratio: '1:4', 'random-data': true, pipeline: '16', 'key-prefix': '' },
    });
  });

  it('refuses what decides where the client connects or writes, and anything not a flag', () => {
    for (const flags of [['-s', 'evil'], ['--server=evil'], ['-p', '1'], ['-a', 'u:p'], ['--tls'], ['--json-out-file=/tmp/x'], ['-o', 'x'], ['--out-file=x'], ['--run-count=3;id'], ['rm'], ['-t2'], ['--ratio=1:1;reboot'], ['--key-prefix=$(x)'], ['--protocol=memcache_text']]) {
      const result = parseCustomFlags(flags);
      expect(result.ok, flags.join(' ')).toBe(false);
    }
    expect(parseCustomFlags(['--server=evil'])).toMatchObject({ ok: false, error: expect.stringContaining('not a flag a custom run may set') });
  });

  it('keeps a run bounded', () => {
    expect(parseCustomFlags(['--threads=8', '--clients=64'])).toMatchObject({ ok: false, error: expect.stringContaining('at most 256 connections') });
    expect(parseCustomFlags(['--threads=1', '--clients=100', '--requests=1000000'])).toMatchObject({ ok: false, error: expect.stringContaining('at most 20000000') });
    expect(parseCustomFlags(['--test-time=121'])).toMatchObject({ ok: false });
    // A report's commands repeat each load (--run-count=3): allowed, within the same bounds.
    expect(parseCustomFlags(['--test-time=4', '--run-count=3'])).toMatchObject({ ok: true, args: ['--test-time=4', '--run-count=3'] });
    expect(parseCustomFlags(['--test-time=60', '-x', '3'])).toMatchObject({ ok: false, error: 'test-time × run-count is 180 s; at most 120' });
    expect(parseCustomFlags(['--threads=1', '--clients=100', '--requests=100000', '--run-count=3'])).toMatchObject({ ok: false, error: expect.stringContaining('at most 20000000') });
    expect(parseCustomFlags(['--run-count=11'])).toMatchObject({ ok: false });
    expect(parseCustomFlags(['--test-time=5', '--requests=10'])).toMatchObject({ ok: false, error: 'give --requests or --test-time, not both' });
    expect(parseCustomFlags(['--ratio=0:0'])).toMatchObject({ ok: false });
    expect(parseCustomFlags(['--key-minimum=10', '--key-maximum=5'])).toMatchObject({ ok: false });
    expect(parseCustomFlags(['--threads=1', '--threads=2'])).toMatchObject({ ok: false, error: '--threads is given twice' });
    expect(parseCustomFlags(['--pipeline'])).toMatchObject({ ok: false, error: '--pipeline needs a value' });
    expect(parseCustomFlags(['--random-data=1'])).toMatchObject({ ok: false, error: '--random-data takes no value' });
    expect(parseCustomFlags('--threads=1')).toMatchObject({ ok: false });
    expect(parseCustomFlags(Array(41).fill('-R'))).toMatchObject({ ok: false });
  });

  it("caps the client's memory: connections × pipeline × largest value (issue 43)", () => {
    // The run: 256 connections each holding 1024 values of 1 MiB, 256 GiB on the worker's host.
    expect(parseCustomFlags(['--threads=8', '--clients=32', '--pipeline=1024', '--data-size=1048576'])).toMatchObject({
      ok: false,
      error: 'connections × pipeline × value size is 256 × 1024 × 1048576 B = 262144 MiB; the client memory limit is 256 MiB',
    });
    // The largest value of a range or a list counts; memtier's 4 × 50 connections when absent.
    expect(parseCustomFlags(['--pipeline=64', '--data-size-range=32-65536'])).toMatchObject({ ok: false, error: expect.stringContaining('client memory limit is 256 MiB') });
    expect(parseCustomFlags(['--pipeline=64', '--data-size-list=128:3,65536:1'])).toMatchObject({ ok: false, error: expect.stringContaining('client memory limit') });
    expect(parseCustomFlags(['--pipeline=1024'])).toMatchObject({ ok: true });
    expect(parseCustomFlags(['--threads=1', '--clients=4', '--pipeline=64', '--data-size=1048576'])).toMatchObject({ ok: true });
    expect(parseCustomFlags(['--threads=1', '--clients=4', '--pipeline=65', '--data-size=1048576'])).toMatchObject({ ok: false });
  });
});
