// The worker drives one instance through its whole life on a real `local` VM: create →
// running, write and read with redis-cli, the cgroup matches the type, a second deploy
// changes nothing, resize and restart keep the data, operations run in the order they were
// asked, delete leaves nothing behind. Operations are started as the API starts them
// (@basalt/db's startOperation).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import {
  createInstance,
  getInstance,
  operationEvents,
  requestOperation,
  waitForOperation,
  type CreatedInstance,
} from './support/fixtures.js';
import { cgroupLimits, cgroupPaths, cgroupProcessCount, machineOf, nspawnRunning, redisCli, sshToVm, vmDir } from './support/vm-host.js';

interface NodeRow {
  name: string;
  private_ip: string;
}
interface EndpointRow {
  host: string;
  port: number;
}

let stack: WorkerStack;
let instance: CreatedInstance;
let node: NodeRow;
/** The VM's machine name (its cgroup), read once it exists. */
let machine = '';
let endpoint: EndpointRow;

beforeAll(async () => {
  stack = await startWorkerStack('prov_life');
  stack.startWorker();
});

afterAll(async () => {
  await stack?.stop();
});

const ssh = (command: string) => sshToVm(stack.dataDir, node.private_ip, command);

describe('an instance on a local VM, driven by the worker', () => {
  test('is created and reaches running', async () => {
    const started = Date.now();
    instance = await createInstance(stack, 'life', 'kv.standard.small');
    const operation = await waitForOperation(stack, instance.operationId);
    const row = await getInstance(stack, instance.id);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${stack.worker.log()}`).toBe('succeeded');
    expect(row.status).toBe('running');
    expect(row.fault).toBeNull();
    console.log(`create → running: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    node = (row.nodes as NodeRow[])[0]!;
    machine = machineOf(vmDir(stack.dataDir, node.name));
    endpoint = (row.endpoints as EndpointRow[])[0]!;
    expect(node.private_ip).toMatch(/^10\.77\.\d+\.\d+$/);
    expect(endpoint).toMatchObject({ host: node.private_ip, port: 6379 });
    const steps = (operation.steps as { name: string; status: string }[]).map((s) => `${s.name}:${s.status}`);
    expect(steps).toEqual([
      'allocate_addresses:succeeded',
      'terraform_init:succeeded',
      'terraform_apply:succeeded',
      'ansible_deploy:succeeded',
      'health_check:succeeded',
    ]);
  });

  test('serves redis-cli with the instance user', () => {
    expect(redisCli(endpoint.host, endpoint.port, instance, 'SET', 'greeting', 'hello')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'greeting')).toBe('hello');
  });

  test('runs inside cgroup limits that match its type (1 vCPU, 2 GiB)', () => {
    expect(cgroupLimits(machine)).toEqual({ cpus: 1, memoryMb: 2048 });
    expect(cgroupProcessCount(machine)).toBeGreaterThan(3);
  });

  test('a second deploy with nothing changed reports no change', async () => {
    // A modify with nothing to change runs the whole stack and the full engine role again.
    const operationId = await requestOperation(stack, instance.id, 'modify', { changes: {} });
    const operation = await waitForOperation(stack, operationId);
    expect(operation.status).toBe('succeeded');
    const events = await operationEvents(stack, operationId);
    const changed = events.filter((e) => e.kind === 'ansible').map((e) => e.message);
    const stats = events.find((e) => e.kind === 'ansible_stats');
    expect(stats?.data, changed.join('\n')).toMatchObject({ changed: 0 });
  });

  test('resize to kv.standard.large changes the limits and keeps the data', async () => {
    const bootPid = ssh('cat /proc/1/stat').split(' ')[21];
    const operationId = await requestOperation(stack, instance.id, 'modify', {
      changes: { instance_type: { from: 'kv.standard.small', to: 'kv.standard.large' } },
      target: { instance_type: 'kv.standard.large', disk_gib: 10, parameters: {} },
    });
    const operation = await waitForOperation(stack, operationId);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    expect((await getInstance(stack, instance.id)).status).toBe('running');
    expect(cgroupLimits(machine)).toEqual({ cpus: 2, memoryMb: 8192 });
    expect(ssh('cat /etc/basalt/basalt.toml')).toContain('maxmemory = "6144mb"');
    // The same VM (its init started at the same time), not a new one.
    expect(ssh('cat /proc/1/stat').split(' ')[21]).toBe(bootPid);
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'greeting')).toBe('hello');
  });

  test('restart restarts the engine and keeps the data', async () => {
    const before = ssh('systemctl show -p MainPID --value basalt-server');
    const operationId = await requestOperation(stack, instance.id, 'restart');
    const operation = await waitForOperation(stack, operationId);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const after = ssh('systemctl show -p MainPID --value basalt-server');
    expect(after).not.toBe(before);
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'greeting')).toBe('hello');
  });

  test('operations asked one after another run in that order, each after the one before has finished', async () => {
    // Asked at once, on three queues: a modify that fails (its target type does not exist),
    // a users apply (what the password-expiry pass starts), a restart.
    const modifyId = await requestOperation(stack, instance.id, 'modify', { changes: {}, target: { instance_type: 'kv.no-such-type', disk_gib: 10, parameters: {} } });
    const usersId = await requestOperation(stack, instance.id, 'applyUsers');
    const restartId = await requestOperation(stack, instance.id, 'restart');
    const [modify, users, restart] = [await waitForOperation(stack, modifyId), await waitForOperation(stack, usersId), await waitForOperation(stack, restartId)];
    expect([modify.status, users.status, restart.status], JSON.stringify([modify.error, users.error, restart.error])).toEqual(['failed', 'succeeded', 'succeeded']);
    // Each started only once the one asked before it had finished.
    expect(users.startedAt!.getTime()).toBeGreaterThanOrEqual(modify.finishedAt!.getTime());
    expect(restart.startedAt!.getTime()).toBeGreaterThanOrEqual(users.finishedAt!.getTime());
    // The restart, last, owns the status it leaves.
    expect(await getInstance(stack, instance.id)).toMatchObject({ status: 'running', fault: null });
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'greeting')).toBe('hello');
  });

  test('a failed modify stays error with its fault through the next users apply', async () => {
    const modify = await waitForOperation(stack, await requestOperation(stack, instance.id, 'modify', { changes: {}, target: { instance_type: 'kv.no-such-type', disk_gib: 10, parameters: {} } }));
    expect(modify.status).toBe('failed');
    const users = await waitForOperation(stack, await requestOperation(stack, instance.id, 'applyUsers'));
    expect(users.status, JSON.stringify(users.error)).toBe('succeeded');
    // The users apply owns no status (operation-kinds.ts): it leaves the modify's error and fault.
    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('error');
    expect(row.fault).toMatchObject({ step: 'load', operation_id: modify.id });
    const restart = await waitForOperation(stack, await requestOperation(stack, instance.id, 'restart'));
    expect(restart.status, JSON.stringify(restart.error)).toBe('succeeded');
    expect(await getInstance(stack, instance.id)).toMatchObject({ status: 'running', fault: null });
  });

  test('the engine comes back by itself when it dies', async () => {
    const before = ssh('systemctl show -p MainPID --value basalt-server');
    ssh(`kill -9 ${before}`);
    const deadline = Date.now() + 15_000;
    let answer = '';
    while (Date.now() < deadline) {
      try {
        answer = redisCli(endpoint.host, endpoint.port, instance, 'GET', 'greeting');
        if (answer === 'hello') break;
      } catch {
        // Refused while systemd restarts it.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(answer).toBe('hello');
    expect(ssh('systemctl show -p MainPID --value basalt-server')).not.toBe(before);
  });

  test('delete leaves nothing behind and frees the address', async () => {
    const operationId = await requestOperation(stack, instance.id, 'delete');
    const operation = await waitForOperation(stack, operationId);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('deleted');
    expect(row.nodes).toEqual([]);
    expect(fs.existsSync(vmDir(stack.dataDir, node.name))).toBe(false);
    expect(fs.readdirSync(path.join(stack.dataDir, 'vms'))).toEqual([]);
    expect(nspawnRunning(machine)).toBe(false);
    for (const dir of cgroupPaths(machine)) expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(path.join(stack.dataDir, 'terraform', instance.id))).toBe(false);
    expect(fs.existsSync(path.join(stack.dataDir, 'runs', instance.id))).toBe(false);
    expect(fs.readFileSync(path.join(stack.dataDir, 'ssh', 'known_hosts'), 'utf8')).not.toContain(`${node.private_ip} `);

    // The address goes back to the pool: the next instance gets it.
    const next = await createInstance(stack, 'next', 'kv.standard.small');
    const created = await waitForOperation(stack, next.operationId);
    expect(created.status, JSON.stringify(created.error)).toBe('succeeded');
    expect(((await getInstance(stack, next.id)).nodes as NodeRow[])[0]!.private_ip).toBe(node.private_ip);
    const gone = await waitForOperation(stack, await requestOperation(stack, next.id, 'delete'));
    expect(gone.status).toBe('succeeded');
  });
});
