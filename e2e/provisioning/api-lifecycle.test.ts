// Issue 5's acceptance through the API: create an instance in `local`, wait for running,
// write and read with redis-cli as its user, cgroup limits of its type, a read-only user
// and an allowlist (when the engine supports them), resize and restart keep the data,
// delete leaves nothing behind. API and worker run as `npm start` runs them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { cgroupLimits, cgroupPaths, ENGINE_FEATURES, machineOf, nspawnRunning, pingOutcome, redisCli, vmDir, type Credentials } from './support/vm-host.js';

type Instance = Schemas['InstanceDto'];

let platform: ProvisioningPlatform;
let instance: Instance;
let owner: Credentials;
let endpoint: { host: string; port: number };
/** The VM's machine name (its cgroup), read once it exists. */
let machine = '';

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_api');
});

afterAll(async () => {
  await platform?.stop();
});

const path_ = () => ({ project: platform.projectId, instance: instance.id });

describe('an instance through the API, on a local VM', () => {
  test('POST → running, then redis-cli writes and reads as the returned user', async () => {
    const started = Date.now();
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'acceptance', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
    });
    expect(response.status).toBe(202);
    instance = data!.instance;
    owner = data!.default_user;
    expect(instance.status).toBe('creating');

    instance = await platform.waitForStatus(instance.id, ['running']);
    console.log(`POST → running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(instance.health).toBe('healthy');
    expect(instance.fault).toBeNull();
    endpoint = instance.endpoints[0]!;
    machine = machineOf(vmDir(platform.dataDir, instance.nodes[0]!.name));
    expect(endpoint).toMatchObject({ type: 'private', port: 6379, tls: false });
    expect(instance.connection_uri).toBe(`redis://default:********@${endpoint.host}:6379`);

    expect(redisCli(endpoint.host, endpoint.port, owner, 'SET', 'acceptance', 'kept')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, owner, 'GET', 'acceptance')).toBe('kept');
  });

  test('its VM runs inside the cgroup limits of kv.standard.small (1 vCPU, 2 GiB)', () => {
    expect(cgroupLimits(machine)).toEqual({ cpus: 1, memoryMb: 2048 });
  });

  test.runIf(ENGINE_FEATURES.has('users'))('a read-only user reads but cannot write', async () => {
    const { data } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users', {
      params: { path: path_() },
      body: { username: 'reader', permission: 'read_only' },
    });
    expect((await platform.waitForOperation(data!.operation!.id)).status).toBe('succeeded');
    const reader = { username: 'reader', password: data!.password };
    expect(redisCli(endpoint.host, endpoint.port, reader, 'GET', 'acceptance')).toBe('kept');
    expect(redisCli(endpoint.host, endpoint.port, reader, 'SET', 'acceptance', 'changed')).toMatch(/NOPERM/);
    expect(redisCli(endpoint.host, endpoint.port, owner, 'GET', 'acceptance')).toBe('kept');
  });

  test.runIf(ENGINE_FEATURES.has('allowlist'))('an allowlist that leaves out this host refuses its connection', async () => {
    const replace = async (cidrs: string[]) => {
      const { data } = await platform.client.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
        params: { path: path_() },
        body: { entries: cidrs.map((cidr) => ({ cidr, description: '' })) },
      });
      expect((await platform.waitForOperation(data!.operation!.id)).status).toBe('succeeded');
    };
    await replace(['192.0.2.0/24']);
    expect(pingOutcome(endpoint.host, endpoint.port, owner)).toMatch(/^refused/);
    await replace([]);
    expect(redisCli(endpoint.host, endpoint.port, owner, 'GET', 'acceptance')).toBe('kept');
  });

  test('resize to kv.standard.large: new limits, same data', async () => {
    const { data, response } = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', {
      params: { path: path_() },
      body: { instance_type: 'kv.standard.large' },
    });
    expect(response.status).toBe(202);
    expect(data!.instance.status).toBe('modifying');
    instance = await platform.waitForStatus(instance.id, ['running']);
    expect(instance.instance_type).toBe('kv.standard.large');
    expect(cgroupLimits(machine)).toEqual({ cpus: 2, memoryMb: 8192 });
    expect(redisCli(endpoint.host, endpoint.port, owner, 'GET', 'acceptance')).toBe('kept');
  });

  test('restart: same data', async () => {
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path: path_() } });
    expect(response.status).toBe(202);
    const operation = await platform.waitForOperation(data!.operation!.id);
    expect(operation.status).toBe('succeeded');
    expect((operation.steps as { name: string }[]).map((s) => s.name)).toEqual(['ansible_restart', 'health_check']);
    instance = await platform.waitForStatus(instance.id, ['running']);
    expect(redisCli(endpoint.host, endpoint.port, owner, 'GET', 'acceptance')).toBe('kept');
  });

  test('delete leaves no container, no state dir, and frees the address', async () => {
    const node = instance.nodes[0] as unknown as { name: string; private_ip: string };
    const { response } = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: path_() } });
    expect(response.status).toBe(202);
    instance = await platform.waitForStatus(instance.id, ['deleted'], 240_000);
    expect(instance.nodes).toEqual([]);
    expect(instance.endpoints).toEqual([]);
    expect(nspawnRunning(machine)).toBe(false);
    expect(fs.existsSync(vmDir(platform.dataDir, node.name))).toBe(false);
    expect(fs.readdirSync(path.join(platform.dataDir, 'vms'))).toEqual([]);
    for (const dir of cgroupPaths(machine)) expect(fs.existsSync(dir)).toBe(false);
    expect(pingOutcome(endpoint.host, endpoint.port, owner)).toMatch(/^refused/);
  });
});
