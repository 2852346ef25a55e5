// A worker killed in the middle of a provisioning: the Terraform or Ansible run it started dies
// with it (none goes on beside the retry), the operation stays `running`, no live worker holds
// its lease, and a new worker finishes it on start (reconcile), so the instance still reaches
// `running` and serves clients.
import fs from 'node:fs';
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

/** Terraform and Ansible runs of this stack still alive: their working dir or arguments name its data dir. */
function toolRuns(dataDir: string): string[] {
  const left: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!/^(terraform|ansible)/.test(fs.readFileSync(`/proc/${pid}/comm`, 'utf8'))) continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(dataDir) || args.includes(dataDir)) left.push(`${pid} ${args}`);
    } catch {
      // exited meanwhile
    }
  }
  return left;
}

describe('a worker killed mid-provision', () => {
  test('leaves an operation that a new worker finishes', async () => {
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

    const row = await getInstance(stack, instance.id);
    expect(row.status).toBe('running');
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'SET', 'after-kill', 'yes')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'after-kill')).toBe('yes');
  });
});
