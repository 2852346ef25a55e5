// The benchmark client's own place on the project bridge (region `local`), as the papers put
// their client on a machine of its own beside the servers: a network namespace with one veth
// whose host side is a port of the bridge, and a pool address given by the allocator (held
// on the run, so no VM is ever given it). The namespace has no route but the pool's, so the
// client can reach nothing but the bridge. Its name comes from the run's id: a retry of the
// run, or a worker's start (sweepClientNamespaces), finds and removes what a crashed worker
// left behind.
import fs from 'node:fs';
import path from 'node:path';
import type { RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import { addressAnswers } from '../address-probe.js';
import { allocationPool, poolNetwork } from '../ipam.js';
import { outputTail, runCommand, type RunResult } from '../process.js';
import { stopPeer } from './peer-server.js';
import { removeClientCgroup } from './client-cgroup.js';
import { cgroupHost } from './host-cgroup.js';

const STEP = 'prepare';
/** Every namespace of a benchmark client starts with this (`ip netns list` is host-wide). */
const PREFIX = 'basalt-bench-';
const PEER_PREFIX = 'basalt-peer-';
/** The client's side of the veth, inside its namespace. */
const INSIDE = 'eth0';

export interface ClientNamespace {
  name: string;
  address: string;
  /** The veth's host side, a port of the bridge (at most 15 characters). */
  hostInterface: string;
}

/** Who of a run has a namespace on the bridge: its client, or its peer server (peer-server.ts). */
export type NamespaceRole = 'client' | 'peer';

/** Names of a run's namespace and host-side veth (12 hex digits of the run's id: 15 characters). */
export function namespaceNames(benchmarkId: string, role: NamespaceRole = 'client'): { name: string; hostInterface: string } {
  const hex = benchmarkId.replace(/-/g, '').slice(0, 12);
  if (!/^[0-9a-f]{12}$/.test(hex)) throw new Error(`not a run id: ${benchmarkId}`);
  return role === 'client' ? { name: `${PREFIX}${hex}`, hostInterface: `bbh${hex}` } : { name: `${PEER_PREFIX}${hex}`, hostInterface: `bbp${hex}` };
}

async function ip(args: string[]): Promise<RunResult> {
  return runCommand('ip', args, { env: { PATH: process.env.PATH }, timeoutMs: 15_000 });
}

async function ipOrFail(args: string[]): Promise<string> {
  const result = await ip(args);
  if (result.exitCode !== 0) {
    throw new StepError(STEP, `ip ${args.join(' ')}: ${outputTail(result.stderr || result.stdout, 2) || `exit ${result.exitCode}`}`);
  }
  return result.stdout;
}

/**
 * Removes a namespace (its veth goes with it) and a host-side veth left without one; absent is
 * fine. Processes still in it (a client a killed worker left running) are killed first: a
 * namespace with a process in it outlives its name, address and all.
 */
export async function removeNamespace(name: string, hostInterface: string): Promise<void> {
  const existing = await ip(['netns', 'list']);
  if (existing.stdout.split('\n').some((line) => line.split(' ')[0] === name)) {
    const pids = (await ip(['netns', 'pids', name])).stdout.split('\n').map(Number).filter((pid) => Number.isInteger(pid) && pid > 1);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await ipOrFail(['netns', 'del', name]);
  }
  const link = await ip(['link', 'show', 'dev', hostInterface]);
  if (link.exitCode === 0) {
    const deleted = await ip(['link', 'del', 'dev', hostInterface]);
    // Deleting the namespace takes its veth pair with it a moment later: if the host side went
    // meanwhile, the delete found nothing, which is the state wanted.
    if (deleted.exitCode !== 0 && (await ip(['link', 'show', 'dev', hostInterface])).exitCode === 0) {
      throw new StepError(STEP, `ip link del dev ${hostInterface}: ${outputTail(deleted.stderr || deleted.stdout, 2) || `exit ${deleted.exitCode}`}`);
    }
  }
}

/**
 * Makes the run's namespace with its pool address on the bridge (removing a leftover of an
 * earlier attempt first), then checks that the kernel sends traffic for `target` from the
 * namespace out of its veth, whose host side is a port of the bridge.
 */
export async function createClientNamespace(
  ctx: JobContext,
  benchmarkId: string,
  region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>,
  target: string,
  role: NamespaceRole = 'client',
): Promise<ClientNamespace> {
  const { name, hostInterface } = namespaceNames(benchmarkId, role);
  await removeNamespace(name, hostInterface);
  const network = poolNetwork(region.addressPool);
  const address = await freeAddress(ctx, benchmarkId, region, name, role);
  try {
    await ipOrFail(['netns', 'add', name]);
    await ipOrFail(['link', 'add', hostInterface, 'type', 'veth', 'peer', 'name', INSIDE, 'netns', name]);
    await ipOrFail(['link', 'set', 'dev', hostInterface, 'master', ctx.config.bridge]);
    await ipOrFail(['link', 'set', 'dev', hostInterface, 'up']);
    await ipOrFail(['-n', name, 'addr', 'add', `${address}/${network.prefixLength}`, 'dev', INSIDE]);
    await ipOrFail(['-n', name, 'link', 'set', 'dev', INSIDE, 'up']);
    await ipOrFail(['-n', name, 'link', 'set', 'dev', 'lo', 'up']);
    await requireBridgePath(name, hostInterface, ctx.config.bridge, target);
  } catch (error) {
    await releaseClientNamespace(ctx, benchmarkId, role).catch(() => {});
    throw error;
  }
  return { name, address, hostInterface };
}

/**
 * An address for the namespace: the allocator's (this control plane's records), skipping one
 * that already answers on the bridge (a VM or a namespace of another control plane sharing
 * this host, which its own records do not show), as provisioning does for a VM's address.
 */
async function freeAddress(ctx: JobContext, benchmarkId: string, region: Pick<RegionRow, 'id' | 'target' | 'addressPool'>, name: string, role: NamespaceRole): Promise<string> {
  const skipped = [poolNetwork(region.addressPool).gateway];
  const pool = allocationPool(ctx.config.addressRange, region);
  for (let attempt = 0; attempt < 32; attempt++) {
    let address: string;
    try {
      address = await ctx.repo.allocateClientAddress(benchmarkId, region.id, pool, name, skipped, role);
    } catch (error) {
      throw new StepError(STEP, (error as Error).message);
    }
    if (!(await addressAnswers(address, PROBE_PORT, { bridge: ctx.config.bridge }))) return address;
    ctx.log(`[${benchmarkId}] ${address} already answers on ${ctx.config.bridge}; the benchmark ${role} takes another address`);
    skipped.push(address);
    await ctx.repo.releaseClientAddress(benchmarkId, role);
  }
  throw new StepError(STEP, `no free address for the benchmark ${role} in ${pool} after skipping ${skipped.length - 1} in use`);
}

/** The one the provisioning probe uses: a VM answers on its sshd, any live host refuses. */
const PROBE_PORT = 22;

/** The only way out of the namespace to `target` is its veth, and the veth's other end is on the bridge. */
async function requireBridgePath(name: string, hostInterface: string, bridge: string, target: string): Promise<void> {
  const route = await ipOrFail(['-n', name, '-o', 'route', 'get', target]);
  const device = / dev (\S+)/.exec(route)?.[1];
  if (device !== INSIDE) throw new StepError(STEP, `refusing to benchmark ${target}: from the client's namespace the kernel routes it through ${device ?? 'nowhere'}`);
  const link = await ipOrFail(['-o', 'link', 'show', 'dev', hostInterface]);
  if (!link.includes(` master ${bridge} `)) throw new StepError(STEP, `refusing to benchmark ${target}: the client's veth ${hostInterface} is not a port of ${bridge}`);
}

/** Removes the run's namespace, then frees its address (in that order: the address is never free while in use). */
export async function releaseClientNamespace(ctx: JobContext, benchmarkId: string, role: NamespaceRole = 'client'): Promise<void> {
  const { name, hostInterface } = namespaceNames(benchmarkId, role);
  await removeNamespace(name, hostInterface);
  await ctx.repo.releaseClientAddress(benchmarkId, role);
}

/** argv that runs `binary` inside the namespace (`ip netns exec` execs it: the child's pid is the client's). */
export function inNamespace(namespace: string, binary: string, args: string[]): { file: string; args: string[] } {
  return { file: 'ip', args: ['netns', 'exec', namespace, binary, ...args] };
}

/**
 * A run's own directory (auth files, the CA file, its engines' data, config and at-rest keys):
 * removed when the run ends, and by the sweep after a killed worker.
 */
export function benchmarkRunDir(ctx: JobContext, instanceId: string, operationId: string): string {
  return path.join(ctx.config.runsDir, instanceId, operationId, 'benchmark');
}

/**
 * At a worker's start: removes the namespaces (and the client's cgroup) of runs that have finished (a worker killed
 * after its run's status was written, before its cleanup). A run still pending or running is
 * left to its own retry, which starts by removing what its earlier attempt left. Namespaces
 * of runs this database does not know belong to another control plane on the host: untouched.
 */
export async function sweepClientNamespaces(ctx: JobContext): Promise<number> {
  let removed = 0;
  for (const run of await ctx.repo.listBenchmarkClients()) {
    if (run.status === 'pending' || run.status === 'running') continue;
    if (run.peerNamespace) await stopPeer(ctx, run.id);
    if (run.namespace) await releaseClientNamespace(ctx, run.id);
    await removeClientCgroup(cgroupHost(ctx.config.root), run.id);
    // What the killed run wrote (an encryption-overhead engine's data, config and key files).
    if (run.instanceId && run.operationId) fs.rmSync(benchmarkRunDir(ctx, run.instanceId, run.operationId), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
