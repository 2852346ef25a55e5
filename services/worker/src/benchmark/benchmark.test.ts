// The benchmark job's parts: the suites' plans, the command line kept (password left out),
// the figures read from basalt-bench's JSON, its progress line, the total handler map, and
// the real basalt-bench against a Debian redis-server on loopback, finished and cancelled.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceTypeRow } from '@basalt/db';
import { requireHandlerForEveryQueue } from '../handlers.js';
import { parseProgressLine, runBench } from './bench-process.js';
import { inNamespace, namespaceNames } from './client-namespace.js';
import { clientArgs, displayCommand, writeAuthFile, type ClientTarget } from './scenario-command.js';
import { scenarioFigures } from './scenario-figures.js';
import { peerOf, planScenarios } from './suites.js';

const small = { vcpu: 1 } as InstanceTypeRow;
const large = { vcpu: 16 } as InstanceTypeRow;
const target: ClientTarget = { host: '10.77.0.9', port: 6379, username: 'default', password: "s3cret'pw" };
const BENCH = process.env.BASALT_BENCH_BIN ?? path.resolve(import.meta.dirname, '../../../../engine/target/release/basalt-bench');

describe('suites', () => {
  it('memtier-standard: 6 scenarios, connections scaled to the type', () => {
    const plan = planScenarios('memtier-standard', small, {});
    expect(plan.map((s) => [s.name, s.valueSize, s.pipeline, s.connections])).toEqual([
      ['write-only 128 B, ping-pong', 128, 1, 8],
      ['read-only 128 B, ping-pong', 128, 1, 8],
      ['mixed 1:1 128 B, pipeline 32', 128, 32, 8],
      ['write-only 4 KB, ping-pong', 4096, 1, 8],
      ['read-only 4 KB, ping-pong', 4096, 1, 8],
      ['mixed 1:1 4 KB, pipeline 32', 4096, 32, 8],
    ]);
    expect(planScenarios('memtier-standard', large, {})[0]!.connections).toBe(64);
    // 3 rounds of one 4-second run each, the median round its figure (rounds.ts), not --run-count.
    expect(plan.every((s) => s.rounds === 3 && s.flags.includes('--test-time=4') && !s.flags.some((f) => f.startsWith('--run-count')))).toBe(true);
  });

  it('canonical: the key set, then 1:4:8:64 over the memcached port, 64 connections per vCPU', () => {
    const plan = planScenarios('canonical', small, {});
    expect(plan.map((s) => [s.mode, s.workload, s.connections])).toEqual([
      ['canonical', 'canonical-load', 64],
      ['canonical', 'canonical', 64],
    ]);
    expect(plan[1]!.flags).toEqual(['--threads=1', '--clients=64', '--keys=20000', '--ratio=1:4:8:64', '--batch=1-16', '--key-size=8-16', '--value-size=8-128', '--requests=1563']);
    expect(plan[0]!.scaling).toMatch(/^64 connections \(the report's 512/);
    expect(planScenarios('canonical', large, {})[0]!.connections).toBe(512);
    const args = clientArgs({ ...target, memcachedPort: 11211 }, plan[1]!, '/run/r.json', '/run/auth');
    expect(args.slice(0, 4)).toEqual(['canonical', '--server=10.77.0.9', '--port=11211', '--authenticate-file=/run/auth']);
    expect(() => clientArgs({ ...target, caFile: '/run/ca.pem' }, plan[1]!, '/run/r.json', '/run/auth')).toThrow(/memcached port/);
  });

  it('ycsb-standard: a load, then three runs at memory:data 7:1 and three at 1:4', () => {
    const plan = planScenarios('ycsb-standard', small, {});
    expect(plan.map((s) => [s.mode, s.workload, s.memoryToData])).toEqual([
      ['ycsb-load', 'ycsb-load', undefined],
      ['ycsb-run', 'uniform-read', 7],
      ['ycsb-run', 'zipfian-read', 7],
      ['ycsb-run', 'uniform-read-update', 7],
      ['ycsb-run', 'uniform-read', 0.25],
      ['ycsb-run', 'zipfian-read', 0.25],
      ['ycsb-run', 'uniform-read-update', 0.25],
    ]);
    expect(plan[1]!.flags).toContain('--operationcount=50000');
    expect(plan[4]!.flags).toContain('--operationcount=50000');
    expect(plan[5]!.flags).toEqual(expect.arrayContaining(['--workload=c', '--requestdistribution=zipfian', '--fieldlength=100', '--recordcount=50000']));
    expect(plan.map((s) => s.peerSkip !== undefined)).toEqual([false, false, false, false, true, true, true]);
    expect([peerOf('memtier-standard'), peerOf('ycsb-standard'), peerOf('canonical'), peerOf('custom')]).toEqual(['redis', 'redis', 'memcached', undefined]);
    const line = displayCommand(target, plan[2]!);
    expect(line.startsWith("basalt-bench ycsb run --server=10.77.0.9 --port=6379 '--authenticate=default:<password>' --workload=c ")).toBe(true);
  });

  it('custom: the flags checked again, their shape recorded', () => {
    const [only] = planScenarios('custom', small, { flags: ['--threads=2', '--clients=3', '--data-size-range=32-64', '--pipeline=4', '--test-time=5'] });
    expect(only).toMatchObject({ workload: 'custom', connections: 6, pipeline: 4, valueSize: undefined, timeoutMs: 35_000 });
    expect(() => planScenarios('custom', small, { flags: ['--server=1.2.3.4'] })).toThrow(/custom flags/);
    expect(() => planScenarios('custom', small, {})).toThrow(/custom flags/);
    expect(() => planScenarios('ycsb-load' as never, small, {})).toThrow(/unknown benchmark suite/);
  });
});

describe('client namespace', () => {
  it("is named from the run's id, its host-side veth within the 15 characters of an interface name", () => {
    const names = namespaceNames('0f3c2a9e-41b7-4c1d-9a2b-5e6f7a8b9c0d');
    expect(names).toEqual({ name: 'basalt-bench-0f3c2a9e41b7', hostInterface: 'bbh0f3c2a9e41b7' });
    expect(names.hostInterface.length).toBeLessThanOrEqual(15);
    expect(() => namespaceNames('../etc')).toThrow(/not a run id/);
    expect(inNamespace(names.name, '/bin/basalt-bench', ['--port=1'])).toEqual({ file: 'ip', args: ['netns', 'exec', 'basalt-bench-0f3c2a9e41b7', '/bin/basalt-bench', '--port=1'] });
  });
});

describe('command line', () => {
  const [scenario] = planScenarios('custom', small, { flags: ['--ratio=1:1', '--key-prefix=a:b'] });
  it('runs with the password in a file only the worker reads, never on the command line or the stored line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-auth-'));
    const authFile = writeAuthFile(dir, target);
    expect(fs.readFileSync(authFile, 'utf8')).toBe("default:s3cret'pw\n");
    expect(fs.statSync(authFile).mode & 0o777).toBe(0o600);
    const args = clientArgs(target, scenario!, '/run/x.json', authFile);
    expect(args.join(' ')).not.toContain('s3cret');
    expect(args).toContain(`--authenticate-file=${authFile}`);
    fs.rmSync(dir, { recursive: true });
    expect(args.slice(-1)).toEqual(['--json-out-file=/run/x.json']);
    const shown = displayCommand(target, scenario!);
    expect(shown).not.toContain('s3cret');
    expect(shown).toBe(
      "basalt-bench --server=10.77.0.9 --port=6379 '--authenticate=default:<password>' --ratio=1:1 --key-prefix=a:b --print-percentiles=50,99,99.9 --hide-histogram --timeout=10 --json-out-file=result.json",
    );
  });
});

describe('progress and figures', () => {
  it("reads the live ops/s of basalt-bench's progress line, ignores other lines", () => {
    expect(parseProgressLine('[RUN #1  60%,   1 secs]  1 threads:       24064 ops,   23884 (avg:   23884) ops/sec, 2.46MB/sec (avg: 2.46MB/sec),  0.08 (avg:  0.08) msec latency')).toEqual({ opsPerSec: 23884, percent: 60 });
    expect(parseProgressLine('[RUN #1 100%,   2 secs] 40000 ops, 21435 ops/sec')).toBeUndefined();
    expect(parseProgressLine('[RUN #1] Launching threads now...')).toBeUndefined();
  });

  it('takes the totals of the JSON report as they are', () => {
    const report = {
      'ALL STATS': { Totals: { Count: 40000, 'Ops/sec': 21434.71, 'Average Latency': 0.09146, Errors: 0, 'Percentile Latencies': { 'p50.00': 0.08, 'p99.00': 0.2, 'p99.90': 1.5 } } },
      'run information': { Tool: 'basalt-bench 0.1.0' },
    };
    expect(scenarioFigures(report)).toEqual({ requests: 40000, qps: 21434.71, avgLatencyMs: 0.09146, p50LatencyMs: 0.08, p99LatencyMs: 0.2, p999LatencyMs: 1.5, errors: 0, tool: 'basalt-bench 0.1.0' });
    expect(() => scenarioFigures({})).toThrow(/ALL STATS/);
  });

  it('takes the aggregate of a --run-count report, not its best or worst run', () => {
    const totals = (count: number, ops: number) => ({ Totals: { Count: count, 'Ops/sec': ops, 'Average Latency': 0.1, Errors: 0, 'Percentile Latencies': { 'p99.00': 0.3 } } });
    const report = {
      'RUN #1 RESULTS': totals(1000, 100),
      'RUN #2 RESULTS': totals(3000, 300),
      'BEST RUN RESULTS': totals(3000, 300),
      'WORST RUN RESULTS': totals(1000, 100),
      'AGGREGATED AVERAGE RESULTS (2 runs)': totals(4000, 200),
    };
    expect(scenarioFigures(report)).toMatchObject({ requests: 4000, qps: 200, p99LatencyMs: 0.3 });
  });
});

describe('handlers', () => {
  it('cover every queue; a map without one fails naming it', () => {
    expect(() => requireHandlerForEveryQueue()).not.toThrow();
    expect(() => requireHandlerForEveryQueue({ provision: () => {} })).toThrow(/no handler for queue\(s\) modify \(instance-modify\).*benchmark \(instance-benchmark\)/);
  });
});

describe.runIf(fs.existsSync(BENCH))('basalt-bench against redis-server on loopback', () => {
  let server: ChildProcess;
  let port = 0;
  let dir = '';
  beforeAll(async () => {
    port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-job-'));
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      const up = await new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).once('error', () => resolve(false)));
      if (up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(() => {
    server?.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const base = () => ['--server=127.0.0.1', `--port=${port}`, '--threads=1', '--clients=2', '--hide-histogram'];

  it('a finished run gives its JSON report', async () => {
    const jsonFile = path.join(dir, 'done.json');
    const outcome = await runBench({ binary: BENCH, args: [...base(), '--requests=500', `--json-out-file=${jsonFile}`], jsonFile, timeoutMs: 30_000, signal: new AbortController().signal, onProgress: () => {} });
    expect(outcome.kind).toBe('finished');
    if (outcome.kind === 'finished') expect(scenarioFigures(outcome.report).requests).toBe(1000);
  });

  it('a cancel stops a 60 s run within seconds', async () => {
    const jsonFile = path.join(dir, 'cancelled.json');
    const controller = new AbortController();
    const seen: number[] = [];
    const running = runBench({ binary: BENCH, args: [...base(), '--test-time=60', `--json-out-file=${jsonFile}`], jsonFile, timeoutMs: 90_000, signal: controller.signal, onProgress: (p) => seen.push(p.opsPerSec) });
    await new Promise((r) => setTimeout(r, 2_500));
    const asked = Date.now();
    controller.abort();
    expect((await running).kind).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('a run past its deadline is stopped and says so', async () => {
    const jsonFile = path.join(dir, 'late.json');
    const outcome = await runBench({ binary: BENCH, args: [...base(), '--test-time=60', `--json-out-file=${jsonFile}`], jsonFile, timeoutMs: 1_000, signal: new AbortController().signal, onProgress: () => {} });
    expect(outcome.kind).toBe('timed_out');
  });
});
