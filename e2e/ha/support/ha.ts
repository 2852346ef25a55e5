// What the HA tests (issue 15) do beside the API: a client that writes through an endpoint
// and records every acknowledgement, and the host's view of a node's VM (kill its nspawn,
// cut it off the bridge and heal it). Every address is checked to route through basalt0
// before anything connects to it.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { ROOT } from '../../support/env.js';
import type { Schemas } from '@basalt/api-client';
import { cgroupPaths, machineOf, vmDir } from '../../provisioning/support/vm-host.js';

const execFileAsync = promisify(execFile);

export type Instance = Schemas['InstanceDto'];
export interface Credentials {
  username: string;
  password: string;
}

/** Throws unless the kernel sends packets for `ip` through the project bridge. */
export function requireBridgeRoute(ip: string): void {
  const route = execFileSync('ip', ['-o', 'route', 'get', ip], { encoding: 'utf8' });
  if (!route.includes(' dev basalt0 ')) throw new Error(`refusing to connect to ${ip}: ${route.trim()}`);
}

export function endpointOf(instance: Instance, role: 'primary' | 'readonly'): { host: string; port: number } {
  const endpoint = instance.endpoints.find((e) => e.role === role);
  if (!endpoint) throw new Error(`instance ${instance.id} has no ${role} endpoint: ${JSON.stringify(instance.endpoints)}`);
  requireBridgeRoute(endpoint.host);
  return { host: endpoint.host, port: endpoint.port };
}

export function primaryNode(instance: Instance) {
  const node = instance.nodes.find((n) => n.role === 'primary');
  if (!node) throw new Error(`instance ${instance.id} has no primary: ${JSON.stringify(instance.nodes)}`);
  return node;
}

/**
 * A connection as the instance's user; commands fail at once while it is down (no queueing).
 * With `ca`, over TLS, the server's certificate checked against that CA for the endpoint's address.
 */
export function connect(endpoint: { host: string; port: number }, user: Credentials, ca?: string): Redis {
  requireBridgeRoute(endpoint.host);
  const client = new Redis({
    host: endpoint.host,
    port: endpoint.port,
    ...(ca ? { tls: { ca, checkServerIdentity: (_name: string, cert: PeerCertificate) => checkServerIdentity(endpoint.host, cert) } } : {}),
    username: user.username,
    password: user.password,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 500,
    commandTimeout: 3_000,
    retryStrategy: () => 100,
  });
  // Failed writes are what the tests measure; ioredis would print every reconnect error too.
  client.on('error', () => {});
  return client;
}

/** A connection that is up: the first connect is tried again for a while (a loaded host can miss the 500 ms connect timeout). */
export async function connected(endpoint: { host: string; port: number }, user: Credentials, attempts = 20, ca?: string): Promise<Redis> {
  for (let attempt = 1; ; attempt++) {
    const client = connect(endpoint, user, ca);
    try {
      await client.connect();
      return client;
    } catch (error) {
      client.disconnect();
      if (attempt >= attempts) throw error;
      await sleep(250);
    }
  }
}

/** The nspawn process of a node's VM. */
export function nspawnPid(dataDir: string, nodeName: string): number {
  return Number(fs.readFileSync(path.join(vmDir(dataDir, nodeName), 'nspawn.pid'), 'utf8').trim());
}

/**
 * Power loss of the node's VM: SIGKILL of its systemd-nspawn, then of every process left in
 * the VM's cgroup. SIGKILL of systemd-nspawn alone leaves the container's processes running
 * (the engine went on serving and acknowledging writes on its address, seen here): the VM is
 * only dead once they are gone too.
 */
/** SIGKILL, where a process that ended between the read of cgroup.procs and the kill is fine (ESRCH). */
function killGone(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export function killVm(dataDir: string, nodeName: string): void {
  process.kill(nspawnPid(dataDir, nodeName), 'SIGKILL');
  for (const dir of cgroupPaths(machineOf(vmDir(dataDir, nodeName)))) {
    if (fs.existsSync(path.join(dir, 'cgroup.kill'))) fs.writeFileSync(path.join(dir, 'cgroup.kill'), '1');
    else for (const pid of fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) killGone(Number(pid));
  }
}

/** The network namespace of the node's VM (its init, the child of systemd-nspawn). */
export function vmNetns(dataDir: string, nodeName: string): string {
  const pid = nspawnPid(dataDir, nodeName);
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  const child = tasks.map((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim()).find(Boolean)?.split(' ')[0];
  if (!child) throw new Error(`VM ${nodeName} has no init process`);
  return `/proc/${child}/ns/net`;
}

/**
 * A write sent from inside the node's VM to its own engine on loopback (the only way to reach
 * a VM cut off from the bridge): redis-cli's first reply line, or its error. Asynchronous, so
 * the test's clients keep writing meanwhile.
 */
export async function writeInsideVm(netns: string, user: Credentials, key: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync(
      'nsenter',
      [`--net=${netns}`, 'redis-cli', '-h', '127.0.0.1', '-p', '6379', '--user', user.username, '--pass', user.password, '--no-auth-warning', 'SET', key, key],
      { encoding: 'utf8', timeout: 10_000 },
    );
    return stdout.trim();
  } catch (error) {
    return `failed: ${String((error as { stderr?: string }).stderr ?? error).trim()}`;
  }
}

/** The host side of the node VM's veth ("vb-" + machine name). */
export function hostVeth(dataDir: string, nodeName: string): string {
  return `vb-${machineOf(vmDir(dataDir, nodeName))}`;
}

/** Cuts the node's VM off the bridge (its veth leaves basalt0); it keeps running. */
export function partition(dataDir: string, nodeName: string): void {
  execFileSync('ip', ['link', 'set', hostVeth(dataDir, nodeName), 'nomaster']);
}

/** Puts the node's VM back on the bridge (nothing to do once the VM and its veth are gone). */
export function heal(dataDir: string, nodeName: string): void {
  try {
    execFileSync('ip', ['link', 'set', hostVeth(dataDir, nodeName), 'master', 'basalt0'], { stdio: 'ignore' });
  } catch {
    // The VM was fenced (killed) and rebuilt: its old veth is gone.
  }
}

/** Percentile (0..100) of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Writes unique keys one after the other through one endpoint, as a client of the instance
 * would, and records every acknowledgement and every span in which writes failed (from the
 * moment the first failed write was sent to the next acknowledgement). Bounded: at most
 * `maxWrites` writes.
 */
export class AckWriter {
  readonly acked: string[] = [];
  readonly outages: { startedAt: number; endedAt: number; errors: string[] }[] = [];
  private failingSince: number | undefined;
  private errors: string[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private next = 0;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly maxWrites = 200_000,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Resolves once `count` more writes were acknowledged after at least one failed (or `timeoutMs` passed). */
  async waitForRecovery(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const outagesBefore = this.outages.length;
    while (Date.now() < deadline) {
      if (this.outages.length > outagesBefore && this.failingSince === undefined) {
        const since = this.acked.length;
        while (this.acked.length < since + count && Date.now() < deadline) await sleep(20);
        return;
      }
      await sleep(20);
    }
    throw new Error(`writes did not recover within ${timeoutMs} ms (failing since ${this.failingSince}: ${this.lastErrors()})`);
  }

  async waitForAcks(count: number, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.acked.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.acked.length} of ${count} writes acknowledged in ${timeoutMs} ms: ${this.lastErrors()}`);
      await sleep(20);
    }
  }

  /** The last errors, and whether the writer stopped at its cap (it then sends nothing more). */
  private lastErrors(): string {
    const capped = this.next >= this.maxWrites ? `; the writer stopped at its cap of ${this.maxWrites} writes` : '';
    return this.errors.slice(-3).join('; ') + capped;
  }

  private async run(): Promise<void> {
    while (!this.stopped && this.next < this.maxWrites) {
      const key = `${this.prefix}:${this.next++}`;
      const sentAt = Date.now();
      try {
        const reply = await this.client.set(key, key);
        if (reply !== 'OK') throw new Error(`SET answered ${reply}`);
        this.acked.push(key);
        if (this.failingSince !== undefined) {
          this.outages.push({ startedAt: this.failingSince, endedAt: Date.now(), errors: this.errors.slice(0, 5) });
          this.failingSince = undefined;
          this.errors = [];
        }
      } catch (error) {
        // The outage began when the first write that failed was sent (it may hang until its timeout).
        this.failingSince ??= sentAt;
        if (this.errors.length < 50) this.errors.push((error as Error).message);
        await sleep(50);
      }
    }
  }
}

/**
 * Runs `action` while one client writes through `endpoint` (over TLS with `ca`): the spans in
 * which writes failed, how many were acknowledged, and which acknowledged keys the endpoint
 * no longer has afterwards (none, when nothing acknowledged is lost).
 */
export async function writesDuring(
  endpoint: { host: string; port: number },
  user: Credentials,
  prefix: string,
  action: () => Promise<void>,
  ca?: string,
): Promise<{ windows: number[]; acked: number; missing: string[] }> {
  const client = await connected(endpoint, user, 20, ca);
  const writer = new AckWriter(client, prefix);
  try {
    writer.start();
    await writer.waitForAcks(200);
    await action();
    await writer.waitForAcks(writer.acked.length + 100);
    await writer.stop();
    return { windows: writer.outages.map((o) => o.endedAt - o.startedAt), acked: writer.acked.length, missing: await missingKeys(client, writer.acked) };
  } finally {
    await writer.stop();
    client.disconnect();
  }
}

/** Keys of `keys` that `client` does not have (MGET in batches). */
export async function missingKeys(client: Redis, keys: string[]): Promise<string[]> {
  const missing: string[] = [];
  for (let i = 0; i < keys.length; i += 500) {
    const batch = keys.slice(i, i + 500);
    const values = await client.mget(...batch);
    values.forEach((value, index) => {
      if (value !== batch[index]) missing.push(batch[index]!);
    });
  }
  return missing;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The VM's size as vm_boot needs it (its cgroup limits). */
export interface VmSize {
  cpus: number;
  memoryMb: number;
}

/**
 * What a restart of this host does to the nodes' VMs, outside any job: every VM powers off,
 * then boots again from its disk (the local module's own vm_stop and vm_boot), each in a fresh
 * network namespace that holds only its own address.
 */
export function rebootVms(dataDir: string, nodeNames: string[], size: VmSize): void {
  const scripts = path.join(ROOT, 'infra', 'terraform', 'modules', 'local', 'scripts');
  const run = (nodeName: string, steps: string) => {
    const dir = vmDir(dataDir, nodeName);
    execFileSync('bash', ['-c', `set -euo pipefail; here="$1"; . "$here/cgroup.sh"; . "$here/vm-lib.sh"; ${steps}`, 'reboot', scripts], {
      env: {
        PATH: process.env.PATH,
        VM_NAME: nodeName,
        VM_DIR: dir,
        VM_IMAGE: path.join(ROOT, '.data', 'images', 'bookworm'),
        VM_IP: fs.readFileSync(path.join(dir, 'address'), 'utf8').trim(),
        VM_BRIDGE: 'basalt0',
        VM_CPUS: String(size.cpus),
        VM_MEMORY_MB: String(size.memoryMb),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  };
  for (const name of nodeNames) run(name, 'vm_stop 30');
  for (const name of nodeNames) run(name, 'vm_boot 90');
}

