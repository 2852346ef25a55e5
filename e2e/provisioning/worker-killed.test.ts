// A worker killed in the middle of a provisioning: the operation stays `running`, no live
// worker holds its lease, and a new worker finishes it on start (reconcile), so the
// instance still reaches `running` and serves clients.
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
  getOperation,
  openControlPlane,
  waitForOperation,
  type ControlPlane,
} from './support/fixtures.js';
import { redisCli } from './support/vm-host.js';

let db: { url: string; drop: () => Promise<void> };
let dataDir: string;
let cp: ControlPlane;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  db = await createDatabase('prov_kill');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-kill-'));
  cp = await openControlPlane(db.url);
});

afterAll(async () => {
  if (cp && workers.length > 0) {
    const cleaner = workers.at(-1)!.child.exitCode === null ? undefined : startWorker(db.url, dataDir, 'cleaner');
    if (cleaner) workers.push(cleaner);
    await deleteAllInstances(cp);
  }
  for (const worker of workers) await worker.kill();
  await cp?.close();
  await db?.drop();
  removeDataDir(dataDir);
});

async function waitForStep(operationId: string, names: string[], timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const operation = await getOperation(cp, operationId);
    const running = (operation.steps as { name: string; status: string }[]).find((s) => s.status === 'running');
    if (running && names.includes(running.name)) return running.name;
    if (operation.status === 'succeeded' || operation.status === 'failed') throw new Error(`operation ended (${operation.status}) before the kill`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no step of ${names.join(', ')} started within ${timeoutMs} ms`);
}

describe('a worker killed mid-provision', () => {
  test('leaves an operation that a new worker finishes', async () => {
    const first = startWorker(db.url, dataDir, 'first');
    workers.push(first);
    const instance = await createInstance(cp, 'killed', 'kv.standard.small');
    const step = await waitForStep(instance.operationId, ['terraform_apply', 'ansible_deploy']);
    await first.kill('SIGKILL');
    console.log(`killed the first worker during ${step}`);

    const left = await getOperation(cp, instance.operationId);
    expect(left.status).toBe('running');
    expect((await getInstance(cp, instance.id)).status).toBe('creating');

    const second = startWorker(db.url, dataDir, 'second');
    workers.push(second);
    const operation = await waitForOperation(cp, instance.operationId, 240_000);
    expect(operation.status, `${JSON.stringify(operation.error)}\n${second.log()}`).toBe('succeeded');
    expect(second.log()).toMatch(new RegExp(`reconciled create operation ${instance.operationId}: succeeded`));

    const row = await getInstance(cp, instance.id);
    expect(row.status).toBe('running');
    const endpoint = (row.endpoints as { host: string; port: number }[])[0]!;
    expect(redisCli(endpoint.host, endpoint.port, instance, 'SET', 'after-kill', 'yes')).toBe('OK');
    expect(redisCli(endpoint.host, endpoint.port, instance, 'GET', 'after-kill')).toBe('yes');
  });
});
