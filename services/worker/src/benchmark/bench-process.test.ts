// The benchmark client starts under an address-space limit (issue 43): its argv, and the limit
// a real child sees through runBench.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_ADDRESS_SPACE_MAX, clientCommand, runBench } from './bench-process.js';

describe('the benchmark client', () => {
  it('is started by prlimit with an address-space limit, inside its namespace when it has one', () => {
    expect(clientCommand('/bin/basalt-bench', ['--threads=1'])).toEqual({ file: 'prlimit', args: [`--as=${BENCH_ADDRESS_SPACE_MAX}`, '--', '/bin/basalt-bench', '--threads=1'] });
    expect(clientCommand('/bin/basalt-bench', ['--threads=1'], 'basalt-bench-0123456789ab')).toEqual({
      file: 'ip',
      args: ['netns', 'exec', 'basalt-bench-0123456789ab', 'prlimit', `--as=${BENCH_ADDRESS_SPACE_MAX}`, '--', '/bin/basalt-bench', '--threads=1'],
    });
  });

  it('runs with that limit: the child reads it back as its own', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-limit-'));
    const jsonFile = path.join(dir, 'report.json');
    try {
      // A stand-in client that writes, as its report, the address-space limit it runs under (KiB).
      const outcome = await runBench({
        binary: '/bin/sh',
        args: ['-c', `printf '{"as_kib": "%s"}' "$(ulimit -v)" > '${jsonFile}'`],
        jsonFile,
        timeoutMs: 10_000,
        signal: new AbortController().signal,
        onProgress: () => {},
      });
      expect(outcome).toMatchObject({ kind: 'finished', exitCode: 0, report: { as_kib: String(BENCH_ADDRESS_SPACE_MAX / 1024) } });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
