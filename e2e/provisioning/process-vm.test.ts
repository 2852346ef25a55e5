// The `local` region's fallback where containers cannot run: process VMs. Forced here with
// BASALT_LOCAL_VM_KIND=process: the engine runs in a directory under the worker's data
// dir on a loopback address, kept alive by a supervisor that outlives the worker, and
// deleting the instance leaves nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import {
  createInstance,
  getInstance,
  requestOperation,
  waitForOperation,
  type CreatedInstance,
} from './support/fixtures.js';
import { redisCli } from './support/vm-host.js';

const PROCESS = { BASALT_LOCAL_VM_KIND: 'process' };

let stack: WorkerStack;
let instance: CreatedInstance;
let node: { name: string; private_ip: string; allocated_ip: string; ssh_user: string; data_dir: string };

beforeAll(async () => {
  stack = await startWorkerStack('prov_proc', PROCESS);
  stack.startWorker();
});

afterAll(async () => {
  await stack?.stop();
});

const pidAlive = (file: string) => {
  try {
    process.kill(Number(fs.readFileSync(file, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
};

describe('a process VM (fallback of the local region)', () => {
  test('is created on a loopback address and serves redis-cli', async () => {
    instance = await createInstance(stack, 'proc', 'kv.standard.small');
    const operation = await waitForOperation(stack, instance.operationId);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${stack.worker.log()}`).toBe('succeeded');
    const row = await getInstance(stack, instance.id);
    node = (row.nodes as (typeof node)[])[0]!;
    expect(node.ssh_user).toBe('');
    expect(node.private_ip).toMatch(/^127\.77\.\d+\.\d+$/);
    expect(node.allocated_ip).toBe(`10.${node.private_ip.split('.').slice(1).join('.')}`);
    expect(node.data_dir).toBe(path.join(stack.dataDir, 'vms', node.name, 'data'));
    expect(redisCli(node.private_ip, 6379, instance, 'SET', 'fallback', 'works')).toBe('OK');
    expect(redisCli(node.private_ip, 6379, instance, 'GET', 'fallback')).toBe('works');
  });

  test('its supervisor restarts the engine and outlives the worker', async () => {
    const run = path.join(stack.dataDir, 'vms', node.name, 'run');
    const engineBefore = fs.readFileSync(path.join(run, 'engine.pid'), 'utf8');
    process.kill(Number(engineBefore), 'SIGKILL');
    await stack.worker.kill('SIGKILL');
    const deadline = Date.now() + 15_000;
    let answer = '';
    while (Date.now() < deadline && answer !== 'works') {
      await new Promise((r) => setTimeout(r, 250));
      answer = (() => {
        try {
          return redisCli(node.private_ip, 6379, instance, 'GET', 'fallback');
        } catch {
          return '';
        }
      })();
    }
    expect(answer).toBe('works');
    expect(fs.readFileSync(path.join(run, 'engine.pid'), 'utf8')).not.toBe(engineBefore);
    expect(pidAlive(path.join(run, 'supervisor.pid'))).toBe(true);
    stack.startWorker('second');
  });

  test('a second deploy changes nothing', async () => {
    // A modify with nothing to change runs the whole stack and the full engine role again.
    const operationId = await requestOperation(stack, instance.id, 'modify', { changes: {} });
    expect((await waitForOperation(stack, operationId)).status).toBe('succeeded');
    const events = await stack.database.db.select().from((await import('@basalt/db')).schema.operationEvents);
    const stats = events.find((e) => e.operationId === operationId && e.kind === 'ansible_stats');
    expect(stats?.data).toMatchObject({ changed: 0 });
  });

  test('delete stops the engine and removes the directory', async () => {
    const run = path.join(stack.dataDir, 'vms', node.name, 'run');
    const supervisor = path.join(run, 'supervisor.pid');
    const supervisorPid = Number(fs.readFileSync(supervisor, 'utf8'));
    const enginePid = Number(fs.readFileSync(path.join(run, 'engine.pid'), 'utf8'));
    const operation = await waitForOperation(stack, await requestOperation(stack, instance.id, 'delete'));
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    expect(fs.existsSync(path.join(stack.dataDir, 'vms', node.name))).toBe(false);
    for (const pid of [supervisorPid, enginePid]) expect(() => process.kill(pid, 0)).toThrow();
    expect(() => redisCli(node.private_ip, 6379, instance, 'PING')).toThrow();
  });
});
