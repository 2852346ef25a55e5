// A worker killed in the middle of a provisioning: the operation stays `running`, no live
// worker holds its lease, and a new worker finishes it on start (reconcile), so the
// instance still reaches `running` and serves clients.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, getInstance, getOperation, waitForOperation } from './support/fixtures.js';
import { redisCli } from './support/vm-host.js';

let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack('prov_kill');
});

afterAll(async () => {
  await stack?.stop();
});

async function waitForStep(operationId: string, names: string[], timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const operation = await getOperation(stack, operationId);
    const running = (operation.steps as { name: string; status: string }[]).find((s) => s.status === 'running');
    if (running && names.includes(running.name)) return running.name;
    if (operation.status === 'succeeded' || operation.status === 'failed') throw new Error(`operation ended (${operation.status}) before the kill`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no step of ${names.join(', ')} started within ${timeoutMs} ms`);
}

describe('a worker killed mid-provision', () => {
  test('leaves an operation that a new worker finishes', async () => {
    const first = stack.startWorker('first');
    const instance = await createInstance(stack, 'killed', 'kv.standard.small');
    const step = await waitForStep(instance.operationId, ['terraform_apply', 'ansible_deploy']);
    await first.kill('SIGKILL');
    console.log(`killed the first worker during ${step}`);

    const left = await getOperation(stack, instance.operationId);
    expect(left.status).toBe('running');
    expect((await getInstance(stack, instance.id)).status).toBe('creating');

    const second = stack.startWorker('second');
    const operation = await waitForOperation(stack, instance.operationId, 240_000);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${second.log()}`).toBe('succeeded');
    expect(second.log()).toMatch(new RegExp(`reconciled create operation ${instance.operationId}: succeeded`));

    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('running');
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'SET', 'after-kill', 'yes')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'after-kill')).toBe('yes');
  });
});
