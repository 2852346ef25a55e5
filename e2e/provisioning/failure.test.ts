// A failing step: the instance goes to `create_failed` with the step, the exit status and
// the tail of the tool's output in `fault`; a retry (a new create operation) succeeds;
// deleting an instance whose create failed cleans up everything.
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

let stack: WorkerStack;
let instance: CreatedInstance;

/** A worker whose VM image is missing: creating the VM fails inside `terraform apply`. */
const startBrokenWorker = (name: string) =>
  stack.startWorker(name, { BASALT_VM_IMAGE: path.join(stack.dataDir, 'no-such-image'), BASALT_LOCAL_VM_KIND: 'nspawn' });

beforeAll(async () => {
  stack = await startWorkerStack('prov_fail');
  startBrokenWorker('broken');
});

afterAll(async () => {
  await stack?.stop();
});

describe('a create that fails', () => {
  test('leaves the instance create_failed with the step, exit status and output tail', async () => {
    instance = await createInstance(stack, 'broken', 'kv.standard.small');
    const operation = await waitForOperation(stack, instance.operationId);
    expect(operation.status).toBe('failed');
    const row = await getInstance(stack, instance.id);
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
    await stack.worker.kill();
    stack.startWorker('fixed');
    const operation = await waitForOperation(stack, await requestOperation(stack, instance.id, 'provision'));
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('running');
    expect(row.fault).toBeNull();
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'PING')).toBe('PONG');
  });

  test('deleting an instance whose create failed cleans up everything', async () => {
    const second = await createInstance(stack, 'broken-too', 'kv.standard.small');
    await stack.worker.kill();
    startBrokenWorker('broken-again');
    expect((await waitForOperation(stack, second.operationId)).status).toBe('failed');
    expect((await getInstance(stack, second.id)).status).toBe('create_failed');
    const deleted = await waitForOperation(stack, await requestOperation(stack, second.id, 'delete'));
    expect(deleted.status, JSON.stringify(deleted.error)).toBe('succeeded');
    const row = await getInstance(stack, second.id);
    expect(row.status).toBe('deleted');
    expect(row.nodes).toEqual([]);
    expect(fs.existsSync(path.join(stack.dataDir, 'terraform', second.id))).toBe(false);
    expect(fs.existsSync(path.join(stack.dataDir, 'vms', `${second.id}-0`))).toBe(false);
  });
});
