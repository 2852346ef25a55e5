// A worker killed in the middle of a provisioning: the Terraform or Ansible run it started dies
// with it (none goes on beside the retry), the operation stays `running`, no live worker holds
// its lease, and a new worker finishes it on start (reconcile), resuming past the steps the
// dead one finished (issue 45), so the instance still reaches `running` and serves clients.
// Then a sample of the fault matrix (fault-matrix.test.ts) on that instance: the test fault
// hook kills a worker at a step (itself, or its whole tree from outside) and the next one
// converges the operation with nothing left behind.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, getInstance, getOperation, operationEvents, waitForOperation, type CreatedInstance } from './support/fixtures.js';
import { redisCli } from './support/vm-host.js';
import { matrixTable, runCell, toolRuns, type Cell } from './support/fault-matrix.js';

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

let survivor: CreatedInstance | undefined;

describe('a worker killed mid-provision', () => {
  test('leaves an operation that a new worker finishes, resuming past the steps finished', async () => {
    const first = stack.startWorker('first');
    const instance = await createInstance(stack, 'killed', 'kv.standard.small');
    const step = await waitForStep(instance.operationId, ['terraform_apply', 'ansible_deploy']);
    const started = Date.now() + 10_000;
    while (toolRuns(stack.dataDir).length === 0 && Date.now() < started) await new Promise((r) => setTimeout(r, 50));
    expect(toolRuns(stack.dataDir).length, 'a Terraform or Ansible run to kill').toBeGreaterThan(0);
    await first.kill('SIGKILL');
    console.log(`killed the first worker during ${step}`);
    // The kernel ends its children at once, the rest of their process groups within seconds.
    const deadline = Date.now() + 10_000;
    while (toolRuns(stack.dataDir).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(toolRuns(stack.dataDir)).toEqual([]);

    const left = await getOperation(stack, instance.operationId);
    expect(left.status).toBe('running');
    expect((await getInstance(stack, instance.id)).status).toBe('creating');

    const second = stack.startWorker('second');
    const operation = await waitForOperation(stack, instance.operationId, 240_000);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${second.log()}`).toBe('succeeded');
    expect(second.log()).toMatch(new RegExp(`reconciled create operation ${instance.operationId}: succeeded`));
    // The retry resumed: what the first worker finished before the kill ran once, the rest again.
    const events = (await operationEvents(stack, instance.operationId)).map((e) => `${e.kind} ${e.step ?? ''}`.trim());
    const resumed = events.indexOf('operation_resumed');
    expect(resumed, events.join('\n')).toBeGreaterThan(0);
    const finishedBefore = step === 'terraform_apply' ? ['allocate_addresses'] : ['allocate_addresses', 'terraform_apply'];
    for (const name of finishedBefore) {
      expect(events.filter((e) => e === `step_started ${name}`), name).toHaveLength(1);
      expect(events.slice(resumed)).toContain(`step_skipped ${name}`);
    }
    expect(events.slice(resumed)).toContain(`step_started ${step}`);
    expect(events.slice(resumed)).toContain('step_started health_check');
    await second.kill();
    survivor = instance;

    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('running');
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'SET', 'after-kill', 'yes')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'after-kill')).toBe('yes');
  });
});

describe('a sample of the fault matrix', () => {
  // A restart killed as its health check starts resumes past the restart; a users apply whose
  // worker's whole tree is killed while Ansible runs applies again.
  const cells: Cell[] = [
    { kind: 'restart', step: 'health_check', how: 'kill' },
    { kind: 'apply_users', step: 'ansible_apply', how: 'kill-group', afterMs: 1500 },
  ];
  test('converges every cell with nothing left behind', async () => {
    expect(survivor, 'the instance the first test made').toBeDefined();
    const results = [];
    for (const cell of cells) results.push(await runCell(stack, cell, survivor));
    console.log(matrixTable(results));
    for (const r of results) expect(r.problems, `${r.cell.kind}:${r.cell.step}\n${r.logs ?? ''}`).toEqual([]);
    expect(results[0]!.skipped).toEqual(['ansible_restart']);
  }, 420_000);
});
