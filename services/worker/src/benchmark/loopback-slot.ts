// The run's server slot where the instance runs as a process VM (no bridge, no nspawn: a
// host without root or without systemd-nspawn). The instance's engine is then a process on a
// loopback address of this host with no cgroup, so the run's other server (the peer, or an
// encryption-overhead engine) is placed the same way: a process on a loopback address of its
// own, 127.78.x.y from the run's id (the standard ports stay free for it), no cgroup. A killed
// worker's server is found again by its pid file (the run's id names it): the run's retry,
// its cleanup and the worker's start stop it (stopLoopbackSlot, sweepLoopbackSlots).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { JobContext } from '../context.js';
import { diesWithWorker } from '../child-lifetime.js';

/** The slot's loopback address: 127.78.x.y, x and y (1-254) from the run's id. */
export function loopbackSlotAddress(benchmarkId: string): string {
  const hex = benchmarkId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`not a run id: ${benchmarkId}`);
  const byte = (i: number) => (parseInt(hex.slice(i, i + 4), 16) % 254) + 1;
  return `127.78.${byte(0)}.${byte(4)}`;
}

function slotsDir(ctx: JobContext): string {
  return path.join(ctx.config.runsDir, 'loopback-slots');
}

function pidFile(ctx: JobContext, benchmarkId: string): string {
  return path.join(slotsDir(ctx), `${benchmarkId}.json`);
}

/** Starts `argv` on this host (no namespace, no cgroup) and records its pid and start time. */
export function startLoopbackSlot(ctx: JobContext, benchmarkId: string, argv: string[]): ChildProcess {
  const lifetime = diesWithWorker(argv[0]!, argv.slice(1));
  const child = spawn(lifetime.file, lifetime.args, { env: { PATH: process.env.PATH }, stdio: 'ignore' });
  if (child.pid !== undefined) {
    fs.mkdirSync(slotsDir(ctx), { recursive: true, mode: 0o700 });
    fs.writeFileSync(pidFile(ctx, benchmarkId), JSON.stringify({ pid: child.pid, started: startTime(child.pid) }), { mode: 0o600 });
  }
  return child;
}

/**
 * When the process started (clock ticks since boot, /proc/PID/stat field 22): with the pid it
 * names one process for good (Redis rewrites its command line, so that cannot). Null where
 * there is no /proc (a process VM host that is not Linux).
 */
function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited: only its parent's wait is left.
    return fields[0] === 'Z' ? 'exited' : (fields[19] ?? null);
  } catch {
    return null;
  }
}

/** Whether the recorded process still runs (a pid the kernel gave to another process since is not ours). */
function runs(pid: number, started: string | null): boolean {
  if (started !== null) return startTime(pid) === started;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the run's loopback server, if it has one (SIGTERM, then SIGKILL after 5 s). */
export async function stopLoopbackSlot(ctx: JobContext, benchmarkId: string): Promise<void> {
  const file = pidFile(ctx, benchmarkId);
  let recorded: { pid: number; started: string | null };
  try {
    recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; started: string | null };
  } catch {
    return;
  }
  const { pid, started } = recorded;
  if (runs(pid, started)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 5_000;
    while (runs(pid, started) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (runs(pid, started)) process.kill(pid, 'SIGKILL');
    const killed = Date.now() + 5_000;
    while (runs(pid, started) && Date.now() < killed) await new Promise((r) => setTimeout(r, 20));
  }
  fs.rmSync(file, { force: true });
}

/** At a worker's start: stops the loopback servers of runs no longer pending or running. */
export async function sweepLoopbackSlots(ctx: JobContext): Promise<number> {
  let files: string[];
  try {
    files = fs.readdirSync(slotsDir(ctx)).filter((f) => f.endsWith('.json'));
  } catch {
    return 0;
  }
  let stopped = 0;
  const benchmarks = ctx.repo.benchmarks();
  for (const file of files) {
    const id = file.slice(0, -'.json'.length);
    const run = await benchmarks.getForJob(id).catch(() => undefined);
    if (run && (run.status === 'pending' || run.status === 'running')) continue;
    await stopLoopbackSlot(ctx, id);
    stopped++;
  }
  return stopped;
}
