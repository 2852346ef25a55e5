// The real worker beside a test's API, for routes that need what only the worker makes (a
// running instance, a finished operation): its built dist file on the API's database, with
// the `local` region's process VMs (an engine process on a loopback address, a few seconds
// to create), so no test plays the worker's part by writing into the tables it owns.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningApi } from './api-process.js';
import { type Caller, createBody, query } from './clients.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const WORKER_MAIN = path.join(ROOT, 'services', 'worker', 'dist', 'main.js');

export interface RealWorker {
  /** Waits for the operation to finish and returns its status (and fault, if it failed). */
  waitForOperation(operationId: string, timeoutMs?: number): Promise<{ status: string; error: unknown }>;
  /** Waits for an instance's create to succeed; throws with the worker's log otherwise. */
  waitRunning(operationId: string): Promise<void>;
  log(): string;
  /** Deletes every instance the test left (process VMs outlive the worker), then stops it. */
  stop(): Promise<void>;
}

export async function startWorker(api: RunningApi, admin: Caller): Promise<RealWorker> {
  if (!fs.existsSync(WORKER_MAIN)) throw new Error(`the worker is not built (${WORKER_MAIN} missing)`);
  // Two files' workers may run at once: each hands out its process's own range of the pool
  // (BASALT_ADDRESS_RANGE, set by test/support/address-range.ts), so they never share an address.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-api-worker-'));
  // The engine binary, copied once: a rebuild of engine/target during the test is not a change.
  const engine = path.join(dataDir, 'basalt-server');
  fs.copyFileSync(process.env.BASALT_ENGINE_BIN ?? path.join(ROOT, 'engine', 'target', 'release', 'basalt-server'), engine);
  fs.chmodSync(engine, 0o755);
  const logFile = path.join(dataDir, 'worker.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [WORKER_MAIN], {
    // The test runner's environment (tools on PATH, TF_CLI_CONFIG_FILE, the engine binary).
    env: {
      ...process.env,
      BASALT_ROOT: process.env.BASALT_ROOT ?? ROOT,
      DATABASE_URL: api.databaseUrl,
      BASALT_DATA_DIR: dataDir,
      BASALT_ENGINE_BIN: engine,
      BASALT_MASTER_KEY: api.masterKey,
      BASALT_LOCAL_VM_KIND: 'process',
      BASALT_RECONCILE_INTERVAL_MS: '5000',
      CHECKPOINT_DISABLE: '1',
    },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => fs.readFileSync(logFile, 'utf8');

  const waitForOperation = async (operationId: string, timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { data } = await admin.client.GET('/v1/operations/{id}', { params: { path: { id: operationId } } });
      if (data && (data.status === 'succeeded' || data.status === 'failed')) return { status: data.status, error: data.error };
      if (child.exitCode !== null) throw new Error(`the worker exited (${child.exitCode}):\n${log().slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`operation ${operationId} still ${data?.status} after ${timeoutMs} ms:\n${log().slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  return {
    waitForOperation,
    async waitRunning(operationId) {
      const done = await waitForOperation(operationId);
      if (done.status !== 'succeeded') throw new Error(`create failed: ${JSON.stringify(done.error)}\n${log().slice(-3000)}`);
    },
    log,
    async stop() {
      // Through the API, as a user would: protection off, delete, wait for the worker to finish.
      const left = await query<{ id: string; project_id: string }>(api, `SELECT id, project_id FROM instances WHERE status <> 'deleted'`);
      const deletes: string[] = [];
      for (const { id, project_id } of left) {
        const path = { project: project_id, instance: id };
        await admin.client.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path }, body: { deletion_protection: false } });
        const deleted = await admin.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path } });
        if (deleted.data?.operation) deletes.push(deleted.data.operation.id);
      }
      try {
        for (const id of deletes) await waitForOperation(id, 120_000);
      } finally {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** One instance in the admin's default project, made running by a real worker started for it. */
export async function startWithRunningInstance(api: RunningApi, admin: Caller, name: string): Promise<{ worker: RealWorker; path: { project: string; instance: string } }> {
  const project = admin.defaultProjectId;
  const created = (await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody(name) })).data!;
  const worker = await startWorker(api, admin);
  // A failed create still stops the worker (and frees the host for the next test file).
  await worker.waitRunning(created.operation!.id).catch(async (error: unknown) => {
    await worker.stop();
    throw error;
  });
  return { worker, path: { project, instance: created.instance.id } };
}
