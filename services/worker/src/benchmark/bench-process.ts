// One basalt-bench run as a child process: argv only (no shell), the worker's allowlisted
// environment, in the run's cgroup (client-cgroup.ts) or else under prlimit, a deadline, a
// cancel signal that stops it within seconds, its once-a-second progress line read for the
// live ops/s, and its JSON report read from the file it writes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { childEnv } from '../child-env.js';
import { inNamespace } from './client-namespace.js';
import { inCgroup, type CgroupHost } from './host-cgroup.js';
import { diesWithWorker } from '../child-lifetime.js';

export interface BenchRunOptions {
  binary: string;
  args: string[];
  /** The file given to --json-out-file. */
  jsonFile: string;
  timeoutMs: number;
  /** Run the client inside this network namespace (client-namespace.ts). */
  namespace?: string;
  /** Run the client in this cgroup (client-cgroup.ts); without one, under prlimit. */
  cgroup?: { host: CgroupHost; name: string };
  signal: AbortSignal;
  onProgress: (progress: BenchProgress) => void;
}

export interface BenchProgress {
  percent: number | undefined;
  opsPerSec: number;
}

export type BenchOutcome =
  /** A report was written; exit code 1 means errors (error replies, lost connections) it counts. */
  | { kind: 'finished'; exitCode: number | null; report: Record<string, unknown>; stderrTail: string }
  | { kind: 'failed'; message: string; exitCode: number | null; stderrTail: string }
  | { kind: 'cancelled' }
  | { kind: 'timed_out' };

/**
 * Where the run has no cgroup (client-cgroup.ts), the client's address space, set with prlimit
 * (RLIMIT_AS) before it starts: the API refuses a run whose buffers (connections × pipeline ×
 * value) exceed 256 MiB, and this bounds whatever the client allocates beyond its flags on the
 * worker's host. basalt-bench at its widest (8 threads, 256 connections) maps about 0.8 GiB; a
 * client that needs more fails to allocate instead of pushing the host into swap or the OOM
 * killer. No CPU bound, and the limit is per process.
 */
export const BENCH_ADDRESS_SPACE_MAX = 4 * 1024 ** 3;

/**
 * argv of a client run: (in its namespace) basalt-bench, entered into its cgroup first or else
 * under prlimit's limit; every step execs, so the pid is the client's.
 */
export function clientCommand(binary: string, args: string[], namespace?: string, cgroup?: BenchRunOptions['cgroup']): { file: string; args: string[] } {
  if (cgroup) return inCgroup(cgroup.host, cgroup.name, namespace ? inNamespace(namespace, binary, args) : { file: binary, args });
  const limited = [`--as=${BENCH_ADDRESS_SPACE_MAX}`, '--', binary, ...args];
  return namespace ? inNamespace(namespace, 'prlimit', limited) : { file: 'prlimit', args: limited };
}

/** After SIGTERM, how long the client gets before SIGKILL (a cancel must stop it within 5 s). */
const KILL_AFTER_MS = 2_000;

/**
 * basalt-bench's progress line, as memtier prints it:
 * `[RUN #1  60%,   1 secs]  1 threads:  24064 ops,  23884 (avg:  23884) ops/sec, ...`.
 * Only the live ops/s is read; a line of another shape is ignored, never an error.
 */
export function parseProgressLine(line: string): BenchProgress | undefined {
  const live = /\s(\d+)\s+\(avg:\s*\d+\)\s+ops\/sec/.exec(line);
  if (!live) return undefined;
  const percent = /\[RUN #\d+\s+(\d+)%/.exec(line);
  return { opsPerSec: Number(live[1]), percent: percent ? Number(percent[1]) : undefined };
}

export function runBench(options: BenchRunOptions): Promise<BenchOutcome> {
  return new Promise((resolve) => {
    if (options.signal.aborted) return resolve({ kind: 'cancelled' });
    const command = clientCommand(options.binary, options.args, options.namespace, options.cgroup);
    const lifetime = diesWithWorker(command.file, command.args);
    const child = spawn(lifetime.file, lifetime.args, { env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let pending = '';
    let stopped: 'cancelled' | 'timed_out' | undefined;
    const stop = (why: 'cancelled' | 'timed_out') => {
      if (stopped || child.exitCode !== null || child.signalCode !== null) return;
      stopped = why;
      child.kill('SIGTERM');
      setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }, KILL_AFTER_MS).unref();
    };
    const timer = setTimeout(() => stop('timed_out'), options.timeoutMs);
    const onAbort = () => stop('cancelled');
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-16_384);
      pending += chunk;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const progress = parseProgressLine(line);
        if (progress) options.onProgress(progress);
      }
    });
    const finish = (outcome: BenchOutcome) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.on('error', (error) => finish({ kind: 'failed', message: `could not run ${options.binary}: ${error.message}`, exitCode: null, stderrTail: '' }));
    child.on('close', (code, signal) => {
      if (stopped) return finish({ kind: stopped });
      const stderrTail = stderr.split('\n').filter((l) => l.trim() && !parseProgressLine(l)).slice(-20).join('\n');
      let report: Record<string, unknown> | undefined;
      try {
        report = JSON.parse(fs.readFileSync(options.jsonFile, 'utf8')) as Record<string, unknown>;
      } catch {
        report = undefined;
      }
      if (report && (code === 0 || code === 1)) return finish({ kind: 'finished', exitCode: code, report, stderrTail });
      // SIGKILL from no one here: the kernel's OOM killer, at the cgroup's memory bound.
      const exit = code ?? `signal ${signal}${signal === 'SIGKILL' && options.cgroup ? ` (its cgroup ${options.cgroup.name} holds it to its memory bound)` : ''}`;
      finish({ kind: 'failed', message: `basalt-bench exited with ${exit}${report ? '' : ' without a JSON report'}`, exitCode: code, stderrTail });
    });
  });
}
