// Where the benchmark client connects, from where, and as whom. In region `local` on a host
// with VMs the client runs in a network namespace of its own with a pool address on the
// project bridge (client-namespace.ts), outside the instance's VMs, as the papers put their
// client on a machine of its own; with process VMs (loopback, no bridge) it runs on this host.
// It connects only when the kernel routes the address through the bridge, and only when the
// allowlist admits the client's address.
import fs from 'node:fs';
import path from 'node:path';
import { decryptSecret, type InstanceRow, type RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { storedCaCertificate, type Endpoint } from '../engine-deploy.js';
import { CONTROL_USER } from '../engine-users.js';
import { engineMaxmemoryMb, vmSizeOf } from '../engine-settings.js';
import { StepError } from '../errors.js';
import { requireHostRoute } from '../host-route.js';
import { allowlistAdmits, poolNetwork } from '../ipam.js';
import { infoAs } from '../resp.js';
import { createClientNamespace, type ClientNamespace } from './client-namespace.js';
import { cacheCounters, setMaxmemory, type EngineControl } from './engine-control.js';
import type { ClientTarget } from './scenario-command.js';

const STEP = 'prepare';
/**
 * Where a client on this host connects from to a process VM (a loopback twin, 127.x.y.z): the
 * kernel's source for loopback, so the engine sees it, and the allowlist must admit it as it
 * would any client's own address (no loopback is admitted for free: issue 43).
 */
const LOOPBACK_CLIENT = '127.0.0.1';

export interface PreparedTarget {
  target: ClientTarget;
  /** basalt_version from the engine's INFO server. */
  engineVersion: string;
  /** The client's namespace on the bridge; undefined when it runs on this host (process VMs). */
  namespace: ClientNamespace | undefined;
  /** The address the client connects from, as the instance sees it. */
  clientAddress: string;
  /** The engine as the control plane's user (cache counters, the cache bound). */
  engine: EngineControl;
  /** The instance's own cache bound (its type's, bytes), put back after a suite changed it. */
  maxmemory: number;
}

/** The customer's user the load runs as: `default` when it may write, else the first that may. */
export async function benchmarkUser(ctx: JobContext, instance: InstanceRow): Promise<{ username: string; password: string }> {
  const users = await ctx.repo.listUsers(instance.id);
  const writers = users.filter((u) => u.permission === 'read_write' || u.permission === 'admin');
  const user = writers.find((u) => u.username === 'default') ?? writers[0];
  if (!user) throw new StepError(STEP, 'the instance has no user that may write; add a read_write or admin user to benchmark it');
  return { username: user.username, password: decryptSecret(ctx.config.masterKey, user.passwordEncrypted) };
}

export async function prepareTarget(ctx: JobContext, instance: InstanceRow, region: RegionRow, runDir: string, benchmarkId: string): Promise<PreparedTarget> {
  const endpoints = (Array.isArray(instance.endpoints) ? instance.endpoints : []) as Partial<Endpoint>[];
  const endpoint = endpoints.find((e) => typeof e.host === 'string' && typeof e.port === 'number');
  if (!endpoint) throw new StepError(STEP, 'the instance has no endpoint to benchmark');
  const host = endpoint.host!;
  const port = endpoint.port!;
  try {
    await requireHostRoute(host, ctx.config.bridge);
  } catch (error) {
    throw new StepError(STEP, (error as Error).message);
  }
  const onBridge = region.target === 'local' && ctx.config.vmKind !== 'process';
  const namespace = onBridge ? await createClientNamespace(ctx, benchmarkId, region, host) : undefined;
  const clientAddress = namespace?.address ?? (ctx.config.vmKind === 'process' ? LOOPBACK_CLIENT : poolNetwork(region.addressPool).gateway);
  if (ctx.engineFeatures.has('allowlist')) {
    const cidrs = (await ctx.repo.listAllowlist(instance.id)).map((entry) => entry.cidr);
    if (!allowlistAdmits(cidrs, clientAddress)) {
      throw new StepError(STEP, `the allowlist leaves out the benchmark client's address ${clientAddress}; allow it to benchmark this instance`);
    }
  }
  const caPem = endpoint.tls ? storedCaCertificate(instance) : undefined;
  if (endpoint.tls && !caPem) throw new StepError(STEP, 'the instance has TLS but no CA certificate is stored with its endpoints');
  let caFile: string | undefined;
  if (caPem) {
    caFile = path.join(runDir, 'ca.pem');
    fs.writeFileSync(caFile, caPem, { mode: 0o600 });
  }
  const control = await ctx.repo.controlCredentials(ctx.config.masterKey).prepare(instance.id);
  const engine: EngineControl = { host, port, user: CONTROL_USER, password: control.current, secure: caPem ? { caPem } : undefined };
  let engineVersion: string;
  let memcachedPort: number | undefined;
  // The bound to put back is the one the instance is deployed with, never the engine's
  // current value: a run killed while a memory:data scenario had lowered it left that one.
  const type = await ctx.catalog.getInstanceType(instance.instanceType);
  if (!type) throw new StepError(STEP, `instance type ${instance.instanceType} does not exist`);
  const maxmemory = engineMaxmemoryMb(vmSizeOf(type)) * 1024 * 1024;
  try {
    const server = await infoAs(host, port, CONTROL_USER, control.current, 'server', engine.secure);
    engineVersion = server.basalt_version ?? server.redis_version ?? 'unknown';
    // The memcached port the engine listens on (0 or absent: off, as with TLS).
    const security = await infoAs(host, port, CONTROL_USER, control.current, 'security', engine.secure);
    memcachedPort = Number(security.memcached_port) > 0 ? Number(security.memcached_port) : undefined;
    const current = (await cacheCounters(engine)).maxmemory;
    if (current !== maxmemory) {
      ctx.log(`[${benchmarkId}] ${instance.id}: maxmemory was ${current} bytes (a killed run's bound), put back to ${maxmemory}`);
      await setMaxmemory(engine, maxmemory);
    }
  } catch (error) {
    throw new StepError(STEP, `${host}:${port}: ${(error as Error).message}`, null, '', true);
  }
  const user = await benchmarkUser(ctx, instance);
  return { target: { host, port, memcachedPort, ...user, caFile }, engineVersion, namespace, clientAddress, engine, maxmemory };
}
