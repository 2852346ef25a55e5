// Issue 15 on a `standard` instance with TLS, through the API on local VMs:
// - one CA per instance signs every node's certificate (own and floating addresses): the
//   replica streams from its primary over TLS, and redis-cli --tls --cacert with that one CA
//   reaches the primary endpoint before and after a switchover, no acknowledged write lost;
// - an allowlist that leaves out this host (the control plane): a customer's client from here
//   is refused, and the failover of a killed primary still runs (the control plane's own user
//   alone may log in from outside the allowlist);
// - a restart of the host (both VMs power off and boot again while no worker runs) loses the
//   floating addresses, which live in the VMs' network namespaces: the failover monitor of the
//   next worker puts each back on the node the row names, and on no other.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { startWorker, type WorkerProcess } from '../provisioning/support/worker-process.js';
import { endpointOf, killVm, primaryNode, rebootVms, requireBridgeRoute, sleep, vmNetns, writesDuring, type Credentials, type Instance } from './support/ha.js';

const WORKER_ENV = { BASALT_FAILOVER_INTERVAL_MS: '1000' };

let platform: ProvisioningPlatform;
let worker: WorkerProcess;
let instance: Instance;
let user: Credentials;
let ca: string;
let caFile: string;

beforeAll(async () => {
  // The test starts and stops the worker itself (the host restart happens while none runs).
  platform = await startProvisioningPlatform('ha_tls', WORKER_ENV, { worker: false });
  worker = startWorker(platform.databaseUrl, platform.dataDir, 'worker', WORKER_ENV);
});
afterAll(async () => {
  if (worker && !worker.running()) worker = startWorker(platform.databaseUrl, platform.dataDir, 'worker', WORKER_ENV);
  await platform?.stop();
  await worker?.kill();
});

/** The real redis-cli over TLS, checking the endpoint's certificate against the instance's CA. */
function cliTls(endpoint: { host: string; port: number }, ...args: string[]): string {
  requireBridgeRoute(endpoint.host);
  return execFileSync(
    'redis-cli',
    ['--tls', '--cacert', caFile, '-h', endpoint.host, '-p', String(endpoint.port), '--user', user.username, '--pass', user.password, '--no-auth-warning', ...args],
    { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
}

function cliOutcome(endpoint: { host: string; port: number }, ...args: string[]): string {
  try {
    return `answered: ${cliTls(endpoint, ...args)}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return `refused: ${failed.stdout ?? ''} ${failed.stderr ?? String(error)}`;
  }
}

/** Whether anything accepts a TCP connection at the address within `timeoutMs`. */
function accepts(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  requireBridgeRoute(host);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function operationOf(id: string) {
  const operation = await platform.waitForOperation(id, 300_000);
  expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
  return operation;
}

async function replaceAllowlist(cidrs: string[]): Promise<void> {
  const { data, response } = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
    params: { path: { project: platform.projectId, instance: instance.id } },
    body: { entries: cidrs.map((cidr) => ({ cidr, description: '' })) },
  });
  // 200: stored, and applied to the running engines by the operation it names.
  expect(response.status, JSON.stringify(data)).toBe(200);
  await operationOf(data!.operation!.id);
}

describe('a standard instance with TLS', () => {
  test('one CA signs every node: writes over TLS through the primary endpoint, read back after a switchover, none lost', async () => {
    const started = Date.now();
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'ha-tls', instance_type: 'kv.standard.small', region: 'local', architecture: 'standard', replicas: 1, tls_enabled: true, parameters: { replication_mode: 'sync', fsync: 'always' } },
    });
    expect(response.status, JSON.stringify(data)).toBe(202);
    user = data!.default_user;
    instance = await platform.waitForStatus(data!.instance.id, ['running'], 300_000);
    console.log(`standard + TLS POST → running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(instance.endpoints.map((e) => [e.role, e.port, e.tls])).toEqual([
      ['primary', 6380, true],
      ['readonly', 6380, true],
    ]);
    // One CA for the instance: both endpoints name the same one.
    const cas = new Set(instance.endpoints.map((e) => e.ca_certificate));
    expect(cas.size).toBe(1);
    ca = [...cas][0]!;
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(ca.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    caFile = path.join(platform.dataDir, 'instance-ca.pem');
    fs.writeFileSync(caFile, ca);

    const primary = endpointOf(instance, 'primary');
    expect(cliTls(primary, 'SET', 'tls:first', 'kept')).toBe('OK');
    // Acknowledged under sync: the replica has it, streamed over TLS from its primary.
    expect(cliTls(endpointOf(instance, 'readonly'), 'GET', 'tls:first')).toBe('kept');
    expect(cliOutcome(endpointOf(instance, 'readonly'), 'SET', 'tls:replica', 'no')).toMatch(/READONLY/);

    const before = primaryNode(instance);
    const { windows, acked, missing } = await writesDuring(
      primary,
      user,
      'tls-switch',
      async () => {
        const { data: failover, response: failoverResponse } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/failover', {
          params: { path: { project: platform.projectId, instance: instance.id } },
        });
        expect(failoverResponse.status).toBe(202);
        await operationOf(failover!.operation!.id);
      },
      ca,
    );
    console.log(`TLS switchover: write failures ${JSON.stringify(windows)} ms; ${acked} acknowledged`);
    expect(missing).toEqual([]);
    instance = await platform.getInstance(instance.id);
    expect(primaryNode(instance).name).not.toBe(before.name);
    // The same endpoint and CA, now served by the other node's certificate.
    expect(cliTls(primary, 'GET', 'tls:first')).toBe('kept');
    expect(cliTls(primary, 'GET', `tls-switch:${0}`)).toBe('tls-switch:0');
    expect(cliTls(endpointOf(instance, 'readonly'), 'GET', 'tls:first')).toBe('kept');
  }, 600_000);

  test('an allowlist that leaves out this host: its customer client is refused, a killed primary is still failed over', async () => {
    const primary = endpointOf(instance, 'primary');
    expect(cliTls(primary, 'SET', 'tls:before-kill', 'kept')).toBe('OK');
    await replaceAllowlist(['192.0.2.0/24']);
    expect(cliOutcome(primary, 'GET', 'tls:first')).toMatch(/refused|not in the allowlist/);
    expect(cliOutcome(primary, 'GET', 'tls:first')).not.toMatch(/kept/);

    const victim = primaryNode(instance);
    killVm(platform.dataDir, victim.name);
    await expect.poll(async () => primaryNode(await platform.getInstance(instance.id)).name, { timeout: 60_000, interval: 250 }).not.toBe(victim.name);
    const failing = await platform.getInstance(instance.id);
    const operation = await operationOf(failing.current_operation_id!);
    expect(operation.type).toBe('failover');
    console.log(`failover with the host outside the allowlist: steps ${JSON.stringify(operation.steps.map((s) => [s.name, s.status]))}`);
    instance = await platform.getInstance(instance.id);
    expect(instance.nodes.find((n) => n.name === victim.name)).toMatchObject({ role: 'replica', status: 'running' });
    // Still refused after the failover; let back in, nothing acknowledged is missing.
    expect(cliOutcome(primary, 'GET', 'tls:first')).not.toMatch(/kept/);
    await replaceAllowlist([]);
    expect(cliTls(primary, 'GET', 'tls:first')).toBe('kept');
    expect(cliTls(primary, 'GET', 'tls:before-kill')).toBe('kept');
  }, 600_000);

  test('a restart of the host: the VMs boot without the floating addresses; the monitor puts each back on its node only', async () => {
    const primary = endpointOf(instance, 'primary');
    const readonly = endpointOf(instance, 'readonly');
    const before = primaryNode(instance);
    await worker.kill();
    rebootVms(platform.dataDir, instance.nodes.map((n) => n.name), { cpus: 1, memoryMb: 2048 });
    // The nodes answer on their own addresses again; the endpoints do not.
    for (const node of instance.nodes) await expect.poll(() => accepts(node.private_ip, 6380), { timeout: 60_000, interval: 250 }).toBe(true);
    expect(await accepts(primary.host, primary.port)).toBe(false);
    expect(await accepts(readonly.host, readonly.port)).toBe(false);

    const started = Date.now();
    worker = startWorker(platform.databaseUrl, platform.dataDir, 'worker', WORKER_ENV);
    const answered = async (endpoint: { host: string; port: number }) => (cliOutcome(endpoint, 'GET', 'tls:first') === 'answered: kept' ? Date.now() - started : 0);
    let primaryMs = 0;
    let readonlyMs = 0;
    while ((!primaryMs || !readonlyMs) && Date.now() - started < 90_000) {
      primaryMs ||= await answered(primary);
      readonlyMs ||= await answered(readonly);
      await sleep(100);
    }
    console.log(`after the host restart, from the worker's start: primary endpoint answers in ${primaryMs} ms, read-only endpoint in ${readonlyMs} ms`);
    expect(primaryMs).toBeGreaterThan(0);
    expect(readonlyMs).toBeGreaterThan(0);
    // No failover: the primary never stopped being the primary; each address on one VM only.
    const after = await platform.getInstance(instance.id);
    expect(primaryNode(after).name).toBe(before.name);
    const holders = after.nodes.map((node) => {
      const addresses = execFileSync('nsenter', [`--net=${vmNetns(platform.dataDir, node.name)}`, 'ip', '-o', '-4', 'addr', 'show', 'dev', 'host0'], { encoding: 'utf8' });
      return [node.role, addresses.includes(` ${primary.host}/`), addresses.includes(` ${readonly.host}/`)];
    });
    expect(holders.sort()).toEqual([
      ['primary', true, false],
      ['replica', false, true],
    ]);
    expect(worker.log()).toMatch(/the primary endpoint .* did not answer; put back on/);
  }, 600_000);

  test('a larger disk rolls node by node (each VM reboots onto it in turn): writes pause only for the switchover, none lost', async () => {
    const primary = endpointOf(instance, 'primary');
    const before = primaryNode(instance);
    const { windows, acked, missing } = await writesDuring(
      primary,
      user,
      'tls-disk',
      async () => {
        const { data, response } = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', {
          params: { path: { project: platform.projectId, instance: instance.id } },
          body: { disk_gib: 20 },
        });
        expect(response.status, JSON.stringify(data)).toBe(202);
        await operationOf(data!.operation!.id);
      },
      ca,
    );
    console.log(`disk 10 -> 20 GiB node by node: write failures ${JSON.stringify(windows)} ms; ${acked} acknowledged`);
    expect(windows.length).toBeLessThanOrEqual(2);
    expect(missing).toEqual([]);
    const after = await platform.getInstance(instance.id);
    expect(after).toMatchObject({ disk_gib: 20, status: 'running' });
    expect(primaryNode(after).name).not.toBe(before.name);
    for (const node of after.nodes) expect(fs.statSync(path.join(platform.dataDir, 'vms', node.name, 'disk.img')).size).toBe(20 * 1024 ** 3);
    expect(cliTls(endpointOf(after, 'readonly'), 'GET', 'tls:first')).toBe('kept');
    instance = after;
  }, 600_000);
});
