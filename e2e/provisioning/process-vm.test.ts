// The `local` region's fallback where containers cannot run: process VMs. Forced here with
// BASALT_LOCAL_VM_KIND=process: the engine runs in a directory under the worker's data
// dir on a loopback address, kept alive by a supervisor that outlives the worker, and
// deleting the instance leaves nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDatabase } from '../support/database.js';
import { removeDataDir, startWorker, type WorkerProcess } from './support/worker-process.js';
import {
  createInstance,
  deleteAllInstances,
  getInstance,
  openControlPlane,
  requestOperation,
  waitForOperation,
  type ControlPlane,
  type CreatedInstance,
} from './support/fixtures.js';
import { redisCli } from './support/vm-host.js';

const PROCESS = { BASALT_LOCAL_VM_KIND: 'process' };

let db: { url: string; drop: () => Promise<void> };
let dataDir: string;
let cp: ControlPlane;
let worker: WorkerProcess;
let instance: CreatedInstance;
let node: { name: string; private_ip: string; allocated_ip: string; ssh_user: string; data_dir: string };

beforeAll(async () => {
  db = await createDatabase('prov_proc');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-proc-'));
  cp = await openControlPlane(db.url);
  worker = startWorker(db.url, dataDir, 'worker', PROCESS);
});

afterAll(async () => {
  if (cp && worker) {
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) worker = startWorker(db.url, dataDir, 'cleaner', PROCESS);
    await deleteAllInstances(cp);
  }
  await worker?.kill();
  await cp?.close();
  await db?.drop();
  removeDataDir(dataDir);
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
    instance = await createInstance(cp, 'proc', 'kv.standard.small');
    const operation = await waitForOperation(cp, instance.operationId);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${worker.log()}`).toBe('succeeded');
    const row = await getInstance(cp, instance.id);
    node = (row.nodes as (typeof node)[])[0]!;
    expect(node.ssh_user).toBe('');
    expect(node.private_ip).toMatch(/^127\.77\.\d+\.\d+$/);
    expect(node.allocated_ip).toBe(`10.${node.private_ip.split('.').slice(1).join('.')}`);
    expect(node.data_dir).toBe(path.join(dataDir, 'vms', node.name, 'data'));
    expect(redisCli(node.private_ip, 6379, instance, 'SET', 'fallback', 'works')).toBe('OK');
    expect(redisCli(node.private_ip, 6379, instance, 'GET', 'fallback')).toBe('works');
  });

  test('its supervisor restarts the engine and outlives the worker', async () => {
    const run = path.join(dataDir, 'vms', node.name, 'run');
    const engineBefore = fs.readFileSync(path.join(run, 'engine.pid'), 'utf8');
    process.kill(Number(engineBefore), 'SIGKILL');
    await worker.kill('SIGKILL');
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
    worker = startWorker(db.url, dataDir, 'second', PROCESS);
  });

  test('a second deploy changes nothing', async () => {
    // A modify with nothing to change runs the whole stack and the full engine role again.
    const operationId = await requestOperation(cp, instance.id, 'modify', { changes: {} });
    expect((await waitForOperation(cp, operationId)).status).toBe('succeeded');
    const events = await cp.database.db.select().from((await import('@basalt/db')).schema.operationEvents);
    const stats = events.find((e) => e.operationId === operationId && e.kind === 'ansible_stats');
    expect(stats?.data).toMatchObject({ changed: 0 });
  });

  test('delete stops the engine and removes the directory', async () => {
    const run = path.join(dataDir, 'vms', node.name, 'run');
    const supervisor = path.join(run, 'supervisor.pid');
    const supervisorPid = Number(fs.readFileSync(supervisor, 'utf8'));
    const enginePid = Number(fs.readFileSync(path.join(run, 'engine.pid'), 'utf8'));
    const operation = await waitForOperation(cp, await requestOperation(cp, instance.id, 'delete'));
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    expect(fs.existsSync(path.join(dataDir, 'vms', node.name))).toBe(false);
    for (const pid of [supervisorPid, enginePid]) expect(() => process.kill(pid, 0)).toThrow();
    expect(() => redisCli(node.private_ip, 6379, instance, 'PING')).toThrow();
  });
});
