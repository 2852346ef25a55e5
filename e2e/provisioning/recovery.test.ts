// Operations that cannot get stuck, limits a shared host needs, and health after `running`,
// through the public API with the real worker, Terraform, Ansible and VMs (issue 11):
// - the health monitor sees an engine stopped behind the control plane's back, and its return;
// - a VM writing past its disk_gib gets ENOSPC inside the VM, the host and others keep writing;
// - a resize that fails keeps the old type on the row, and the same request again succeeds;
// - a delete that fails can be run again with a second DELETE.
// Faults are made on the host as they happen in life: a file the tools cannot change
// (`chattr +i`), an engine stopped with systemctl.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { cgroupLimits, machineOf, redisCli, sshToVm, vmDir } from './support/vm-host.js';

type Instance = Schemas['InstanceDto'];
interface Created {
  instance: Instance;
  user: { username: string; password: string };
}

let platform: ProvisioningPlatform;
let first: Created;
let second: Created;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const path_ = (instance: Instance) => ({ params: { path: { project: platform.projectId, instance: instance.id } } });
const nodeIp = (instance: Instance) => instance.nodes[0]!.private_ip!;
const nodeDir = (instance: Instance) => vmDir(platform.dataDir, instance.nodes[0]!.name);
const chattr = (flag: '+i' | '-i', file: string) => execFileSync('chattr', [flag, file]);

async function create(name: string): Promise<Created> {
  const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', disk_gib: 10 },
  });
  expect(response.status).toBe(202);
  return { instance: data!.instance, user: data!.default_user };
}

/** Polls the instance until `done` holds, or fails after `timeoutMs` with what it last was. */
async function waitFor(instance: Instance, done: (i: Instance) => boolean, timeoutMs: number): Promise<{ instance: Instance; ms: number }> {
  const started = Date.now();
  for (;;) {
    const current = await platform.getInstance(instance.id);
    if (done(current)) return { instance: current, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`after ${timeoutMs} ms: ${JSON.stringify({ status: current.status, health: current.health, reason: current.health_reason })}`);
    await sleep(500);
  }
}

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_recovery', { BASALT_HEALTH_INTERVAL_MS: '3000' });
  [first, second] = await Promise.all([create('first'), create('second')]);
  first.instance = await platform.waitForStatus(first.instance.id, ['running']);
  second.instance = await platform.waitForStatus(second.instance.id, ['running']);
}, 400_000);

afterAll(async () => {
  for (const created of [first, second].filter(Boolean)) {
    for (const file of ['nspawn.pid', 'address']) {
      const target = path.join(nodeDir(created.instance), file);
      if (fs.existsSync(target)) execFileSync('chattr', ['-i', target]);
    }
  }
  await platform?.stop();
}, 400_000);

describe('health after running', () => {
  test('an engine stopped behind the control plane turns unavailable within 30 s, and healthy when it returns', async () => {
    expect(first.instance.health).toBe('healthy');
    expect(first.instance.health_reason).toBeNull();
    sshToVm(platform.dataDir, nodeIp(first.instance), 'systemctl stop basalt-server');
    const down = await waitFor(first.instance, (i) => i.health === 'unavailable', 30_000);
    console.log(`engine stopped -> unavailable in ${(down.ms / 1000).toFixed(1)} s: ${down.instance.health_reason}`);
    expect(down.instance.status).toBe('running');
    expect(down.instance.health_reason).toContain(`${nodeIp(first.instance)}:6379`);

    sshToVm(platform.dataDir, nodeIp(first.instance), 'systemctl start basalt-server');
    const up = await waitFor(first.instance, (i) => i.health === 'healthy', 30_000);
    console.log(`engine started -> healthy in ${(up.ms / 1000).toFixed(1)} s`);
    expect(up.instance.health_reason).toBeNull();
  }, 90_000);
});

describe('disk_gib on a shared host', () => {
  test('writing past disk_gib fails inside the VM, while the host and another instance keep writing', async () => {
    const vm = nodeIp(second.instance);
    // The VM's root is its overlay, whose writable layer lives on the 10 GiB disk.
    const sizeGib = Number(sshToVm(platform.dataDir, vm, "df --output=size -B1G / | tail -1"));
    expect(sizeGib).toBeGreaterThanOrEqual(9);
    expect(sizeGib).toBeLessThanOrEqual(10);
    const available = Number(sshToVm(platform.dataDir, vm, 'df --output=avail -B1 / | tail -1'));
    // Nearly all of it at once (fallocate writes no data), then a real write of more than is left.
    sshToVm(platform.dataDir, vm, `fallocate -l ${available - 32 * 1024 ** 2} /var/tmp/fill`);
    const outcome = sshToVm(platform.dataDir, vm, 'dd if=/dev/zero of=/var/tmp/more bs=1M count=128 conv=fsync 2>&1; echo "exit $?"');
    expect(outcome).toMatch(/No space left on device/);
    expect(outcome).toMatch(/exit 1$/);

    // The host's disk is not the VM's: a file of the same size as the VM's last write lands.
    const hostFile = path.join(platform.dataDir, 'host-write');
    fs.writeFileSync(hostFile, Buffer.alloc(64 * 1024 * 1024));
    expect(fs.statSync(hostFile).size).toBe(64 * 1024 * 1024);
    fs.rmSync(hostFile);
    // Another instance keeps taking writes.
    const endpoint = first.instance.endpoints[0]!;
    expect(redisCli(endpoint.host, endpoint.port, first.user, 'SET', 'after-fill', 'v')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, first.user, 'GET', 'after-fill')).toBe('v');

    sshToVm(platform.dataDir, vm, 'rm -f /var/tmp/fill /var/tmp/more');
  }, 120_000);
});

describe('a resize that fails', () => {
  test('keeps the old type and disk on the instance, and the same request again succeeds', async () => {
    const image = path.join(nodeDir(first.instance), 'disk.img');
    // The VM cannot be booted again after its disk grew (its pid file cannot be replaced):
    // Terraform's disk step fails with the VM powered off and its disk already grown.
    const pidFile = path.join(nodeDir(first.instance), 'nspawn.pid');
    chattr('+i', pidFile);
    const body = { instance_type: 'kv.standard.large', disk_gib: 20 };
    const failed = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', { ...path_(first.instance), body });
    expect(failed.response.status).toBe(202);
    const failedOp = await platform.waitForOperation(failed.data!.operation!.id);
    expect(failedOp.status).toBe('failed');
    const afterFailure = await platform.getInstance(first.instance.id);
    expect(afterFailure.status).toBe('error');
    expect(afterFailure.instance_type).toBe('kv.standard.small');
    expect(afterFailure.disk_gib).toBe(10);
    expect(afterFailure.fault?.step).toBe('terraform_apply');

    chattr('-i', pidFile);
    const retried = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', { ...path_(first.instance), body });
    expect(retried.response.status).toBe(202);
    const retriedOp = await platform.waitForOperation(retried.data!.operation!.id, 300_000);
    expect(retriedOp.status, JSON.stringify(retriedOp.error)).toBe('succeeded');
    const resized = await platform.getInstance(first.instance.id);
    expect(resized).toMatchObject({ status: 'running', instance_type: 'kv.standard.large', disk_gib: 20, fault: null });
    expect(fs.statSync(image).size).toBe(20 * 1024 ** 3);
    expect(cgroupLimits(machineOf(nodeDir(first.instance)))).toEqual({ cpus: 2, memoryMb: 8 * 1024 });
    const endpoint = resized.endpoints[0]!;
    const kept = redisCli(endpoint.host, endpoint.port, first.user, 'GET', 'after-fill');
    // Seen once and not again: the key gone after the reboot. The engine's log of each boot says why.
    const engineLog = () => sshToVm(platform.dataDir, nodeIp(first.instance), 'ls -la /var/lib/basalt; for b in -2 -1 0; do echo "boot $b"; journalctl -b $b -u basalt-server --no-pager | tail -12; done');
    expect(kept, kept === 'v' ? '' : engineLog()).toBe('v');
  }, 600_000);
});

describe('a delete that fails', () => {
  test('leaves the instance deleting with its fault, and a second DELETE runs it again', async () => {
    const pinned = path.join(nodeDir(second.instance), 'address');
    chattr('+i', pinned); // the VM's directory cannot be removed: the destroy step fails
    const failed = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', path_(second.instance));
    expect(failed.response.status).toBe(202);
    const failedOp = await platform.waitForOperation(failed.data!.operation!.id, 300_000);
    expect(failedOp.status).toBe('failed');
    const stuck = await platform.getInstance(second.instance.id);
    expect(stuck.status).toBe('deleting');
    expect(stuck.fault?.step).toBe('terraform_destroy');

    chattr('-i', pinned);
    const again = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', path_(second.instance));
    expect(again.response.status, JSON.stringify(again.error)).toBe(202);
    const againOp = await platform.waitForOperation(again.data!.operation!.id, 300_000);
    expect(againOp.status, JSON.stringify(againOp.error)).toBe('succeeded');
    expect((await platform.getInstance(second.instance.id)).status).toBe('deleted');
    expect(fs.existsSync(nodeDir(second.instance))).toBe(false);
  }, 600_000);
});
