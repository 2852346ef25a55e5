// The peer column: the same scenarios against Redis 7 (redis-server from Debian, AOF with the
// instance's fsync policy) or memcached from Debian, in the same run, on a "VM" of the same
// size. In region `local` a VM is a systemd-nspawn container: a network namespace on the
// bridge plus a cgroup with the type's CPU and memory limits. The peer gets exactly those two:
// a namespace of its own with a pool address (client-namespace.ts, role `peer`) and a cgroup
// sized like the instance's VM (the local target's cgroup.sh), so Basalt and the peer serve
// from the same limits over the same bridge to the same client. It lives for the run only:
// stopped when the run ends, by a retry before it starts again, and by the reconciler's sweep.
// An instance on a process VM (no bridge) has its peer on loopback instead (loopback-slot.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { InstanceTypeRow, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { engineMaxmemoryMb, vmSizeOf, type VmSize } from '../engine-settings.js';
import { StepError } from '../errors.js';
import { requireHostRoute } from '../host-route.js';
import { poolNetwork } from '../ipam.js';
import { runCommand } from '../process.js';
import { createClientNamespace, namespaceNames, releaseClientNamespace } from './client-namespace.js';
import { cgroupHost, inCgroup, runCgroup } from './host-cgroup.js';
import { loopbackSlotAddress, startLoopbackSlot, stopLoopbackSlot } from './loopback-slot.js';
import type { ClientTarget } from './scenario-command.js';
import { diesWithWorker } from '../child-lifetime.js';

export type PeerKind = 'redis' | 'memcached';

export interface Peer {
  kind: PeerKind;
  /** e.g. "Redis 7.0.15", "memcached 1.6.18". */
  version: string;
  target: ClientTarget;
  process: ChildProcess;
  /** How it was placed and sized, for the results. */
  placement: string;
}

const REDIS_PORT = 6379;
const MEMCACHED_PORT = 11211;
const STEP = 'prepare';

/** The peer's cgroup, named like a VM's, under the same `basalt` group. */
function cgroupName(benchmarkId: string): string {
  return namespaceNames(benchmarkId, 'peer').name;
}

/** Runs a function of cgroup.sh (host-cgroup.ts); a cgroup that cannot be made fails the step. */
async function cgroup(ctx: JobContext, fn: 'create' | 'kill' | 'remove', name: string, ...limits: [string, string] | []): Promise<void> {
  const result = await runCgroup(cgroupHost(ctx.config.root), fn, name, ...limits);
  if (result.exitCode !== 0 && fn === 'create') throw new StepError(STEP, `peer cgroup ${name}: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
}

async function versionOf(kind: PeerKind): Promise<string> {
  const result = await runCommand(kind === 'redis' ? 'redis-server' : 'memcached', ['--version'], { env: { PATH: process.env.PATH }, timeoutMs: 5_000 });
  const text = `${result.stdout} ${result.stderr}`;
  if (kind === 'redis') return `Redis ${/v=(\S+)/.exec(text)?.[1] ?? '?'}`;
  return `memcached ${/memcached (\S+)/.exec(text)?.[1] ?? '?'}`;
}

/** Whether something accepts a TCP connection at host:port. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function waitListening(host: string, port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new StepError(STEP, `the run's server exited with ${child.exitCode} before it listened`);
    if (await answers(host, port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new StepError(STEP, `the run's server did not listen on ${host}:${port} within ${timeoutMs / 1000} s`);
}

/** A server started in the run's server slot (startInServerSlot). */
export interface SlotServer {
  /** Its pool address on the bridge, or its loopback address (process VMs). */
  address: string;
  process: ChildProcess;
  /** Its own directory in the run's directory (data, files it reads). */
  dir: string;
  size: VmSize;
  /** Where it runs and with what limits, for the results ("in a network namespace ..."). */
  where: string;
}

/**
 * Where the run's servers go: beside the instance's VM on the bridge (nspawn VMs), or on
 * loopback beside the instance's process VM (loopback-slot.ts).
 */
export type SlotPlace = 'bridge' | 'loopback';

/**
 * Starts a server in the run's one server slot (the peer's, or an engine of the
 * encryption-overhead suite): a namespace with a pool address on the bridge, a cgroup with the
 * VM size of `type`, a directory `runDir/dirName`, and `argvOf(address, dir)` in both; or, for
 * an instance on a process VM, a loopback address and no limits, like the instance. Whatever
 * the slot held before is stopped first; stopPeer (and the reconciler's sweep) removes it.
 */
export async function startInServerSlot(
  ctx: JobContext,
  benchmarkId: string,
  region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>,
  type: InstanceTypeRow,
  place: SlotPlace,
  runDir: string,
  dirName: string,
  port: number,
  argvOf: (address: string, dir: string) => string[] | Promise<string[]>,
): Promise<SlotServer> {
  await stopPeer(ctx, benchmarkId);
  const size = vmSizeOf(type);
  const makeDir = () => {
    const dir = path.join(runDir, dirName);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  };
  if (place === 'loopback') {
    const address = loopbackSlotAddress(benchmarkId);
    try {
      if (await answers(address, port)) throw new StepError(STEP, `${address}:${port} is already in use on this host`);
      const dir = makeDir();
      const child = startLoopbackSlot(ctx, benchmarkId, await argvOf(address, dir));
      await waitListening(address, port, child, 15_000);
      return { address, process: child, dir, size, where: `on this host at ${address} (loopback), as the instance's process VM runs: no bridge and no cgroup, so no VM size` };
    } catch (error) {
      await stopPeer(ctx, benchmarkId).catch(() => {});
      throw error;
    }
  }
  const namespace = await createClientNamespace(ctx, benchmarkId, region, poolNetwork(region.addressPool).gateway, 'peer');
  const name = cgroupName(benchmarkId);
  try {
    await requireHostRoute(namespace.address, ctx.config.bridge);
    await cgroup(ctx, 'create', name, String(size.cpus), String(size.memory_mb));
    const dir = makeDir();
    const server = await argvOf(namespace.address, dir);
    // bash enters the cgroup first, then execs the server in the namespace: it never runs outside them.
    const entered = inCgroup(cgroupHost(ctx.config.root), name, { file: 'ip', args: ['netns', 'exec', namespace.name, ...server] });
    const lifetime = diesWithWorker(entered.file, entered.args);
    const child = spawn(lifetime.file, lifetime.args, {
      env: { PATH: process.env.PATH },
      stdio: 'ignore',
    });
    await forgetOldNeighbour(ctx, benchmarkId, namespace.address);
    await waitListening(namespace.address, port, child, 15_000);
    const where = `in a network namespace of its own at ${namespace.address} on ${ctx.config.bridge} and a cgroup of ${size.cpus} vCPU / ${size.memory_mb} MiB (the instance's VM size; its VM is a container with the same two)`;
    return { address: namespace.address, process: child, dir, size, where };
  } catch (error) {
    await stopPeer(ctx, benchmarkId).catch(() => {});
    throw error;
  }
}

/**
 * A slot started again usually gets the address it had, on a new veth with a new MAC: the
 * client's namespace and the host still map the address to the old one (a REACHABLE neighbour
 * entry outlives it by seconds), and connections to the new server would vanish until the
 * entry expires. Forget it on both; absent entries and namespaces are fine.
 */
async function forgetOldNeighbour(ctx: JobContext, benchmarkId: string, address: string): Promise<void> {
  const env = { PATH: process.env.PATH };
  await runCommand('ip', ['-n', namespaceNames(benchmarkId, 'client').name, 'neigh', 'flush', 'to', address], { env, timeoutMs: 5_000 });
  await runCommand('ip', ['neigh', 'flush', 'to', address, 'dev', ctx.config.bridge], { env, timeoutMs: 5_000 });
}

/**
 * Starts the peer for a run: its namespace and address on the bridge, a cgroup with the VM
 * size of `type`, and the server in both. `fsync` is the instance's (always, everysec, no).
 */
export async function startPeer(
  ctx: JobContext,
  benchmarkId: string,
  region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>,
  type: InstanceTypeRow,
  kind: PeerKind,
  fsync: string,
  place: SlotPlace,
  runDir: string,
): Promise<Peer> {
  const size = vmSizeOf(type);
  // The engine's bound on a VM of the size.
  const dataMb = engineMaxmemoryMb(size);
  const password = randomBytes(18).toString('base64url');
  const port = kind === 'redis' ? REDIS_PORT : MEMCACHED_PORT;
  const started = await startInServerSlot(ctx, benchmarkId, region, type, place, runDir, 'peer', port, (address, dir) => {
    fs.chmodSync(dir, 0o777);
    // The password goes in a file of its own (0600), never on the command line every user of the host can read.
    const passwordFile = path.join(dir, 'auth.conf');
    if (kind === 'redis') fs.writeFileSync(passwordFile, `requirepass ${password}\n`, { mode: 0o600 });
    return kind === 'redis'
      ? ['redis-server', passwordFile, '--bind', address, '--port', String(REDIS_PORT), '--dir', dir, '--appendonly', 'yes', '--appendfsync', fsync, '--save', '', '--maxmemory', `${dataMb}mb`, '--maxmemory-policy', 'noeviction', '--protected-mode', 'no', '--daemonize', 'no', '--logfile', '']
      : ['memcached', '-l', address, '-p', String(MEMCACHED_PORT), '-U', '0', '-m', String(dataMb), '-c', '10000', '-t', String(Math.max(1, size.cpus)), '-u', 'nobody'];
  });
  const { address } = started;
  const target: ClientTarget = kind === 'redis' ? { host: address, port, username: 'default', password } : { host: address, port, memcachedPort: port, username: '', password: undefined };
  try {
    return {
      kind,
      version: await versionOf(kind),
      target,
      process: started.process,
      placement: `${kind === 'redis' ? 'Redis' : 'memcached'} ${started.where}${kind === 'redis' ? `, AOF appendfsync ${fsync}, maxmemory ${dataMb} MB noeviction` : `, -m ${dataMb} MB`}`,
    };
  } catch (error) {
    await stopPeer(ctx, benchmarkId).catch(() => {});
    throw error;
  }
}

/**
 * Stops the run's server slot (the peer, or an encryption-overhead engine; whatever a crashed
 * attempt left): its processes, cgroup, namespace and address, or its loopback process.
 */
export async function stopPeer(ctx: JobContext, benchmarkId: string): Promise<void> {
  await stopLoopbackSlot(ctx, benchmarkId);
  const name = cgroupName(benchmarkId);
  await cgroup(ctx, 'kill', name);
  await cgroup(ctx, 'remove', name);
  await releaseClientNamespace(ctx, benchmarkId, 'peer');
}
