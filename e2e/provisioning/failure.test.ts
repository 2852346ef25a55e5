// A failing step: the instance goes to `create_failed` with the step, the exit status and
// the tail of the tool's output in `fault`; a retry (a new create operation) succeeds;
// deleting an instance whose create failed cleans up everything.
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

let db: { url: string; drop: () => Promise<void> };
let dataDir: string;
let cp: ControlPlane;
let worker: WorkerProcess;
let instance: CreatedInstance;

beforeAll(async () => {
  db = await createDatabase('prov_fail');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-fail-'));
  cp = await openControlPlane(db.url);
  // A worker whose VM image is missing: creating the VM fails inside `terraform apply`.
  worker = startWorker(db.url, dataDir, 'broken', { BASALT_VM_IMAGE: path.join(dataDir, 'no-such-image'), BASALT_LOCAL_VM_KIND: 'nspawn' });
});

afterAll(async () => {
  if (cp && worker) await deleteAllInstances(cp);
  await worker?.kill();
  await cp?.close();
  await db?.drop();
  removeDataDir(dataDir);
});

describe('a create that fails', () => {
  test('leaves the instance create_failed with the step, exit status and output tail', async () => {
    instance = await createInstance(cp, 'broken', 'kv.standard.small');
    const operation = await waitForOperation(cp, instance.operationId);
    expect(operation.status).toBe('failed');
    const row = await getInstance(cp, instance.id);
    expect(row.status).toBe('create_failed');
    const fault = row.fault as { code: string; step: string; exit_code: number; output_tail: string; message: string };
    expect(fault.step).toBe('terraform_apply');
    expect(fault.code).toBe('terraform_apply_failed');
    expect(fault.exit_code).toBe(1);
    expect(fault.output_tail).toContain('no VM image at');
    expect(operation.error).toMatchObject({ step: 'terraform_apply' });
    const steps = (operation.steps as { name: string; status: string }[]).map((s) => `${s.name}:${s.status}`);
    expect(steps.slice(0, 3)).toEqual(['allocate_addresses:succeeded', 'terraform_init:succeeded', 'terraform_apply:failed']);
  });

  test('a retry with the fault fixed reaches running', async () => {
    await worker.kill();
    worker = startWorker(db.url, dataDir, 'fixed');
    const operation = await waitForOperation(cp, await requestOperation(cp, instance.id, 'provision'));
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const row = await getInstance(cp, instance.id);
    expect(row.status).toBe('running');
    expect(row.fault).toBeNull();
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'PING')).toBe('PONG');
  });

  test('deleting an instance whose create failed cleans up everything', async () => {
    const second = await createInstance(cp, 'broken-too', 'kv.standard.small');
    await worker.kill();
    worker = startWorker(db.url, dataDir, 'broken-again', { BASALT_VM_IMAGE: path.join(dataDir, 'no-such-image'), BASALT_LOCAL_VM_KIND: 'nspawn' });
    expect((await waitForOperation(cp, second.operationId)).status).toBe('failed');
    expect((await getInstance(cp, second.id)).status).toBe('create_failed');
    const deleted = await waitForOperation(cp, await requestOperation(cp, second.id, 'delete'));
    expect(deleted.status, JSON.stringify(deleted.error)).toBe('succeeded');
    const row = await getInstance(cp, second.id);
    expect(row.status).toBe('deleted');
    expect(row.nodes).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'terraform', second.id))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'vms', `${second.id}-0`))).toBe(false);
  });
});
