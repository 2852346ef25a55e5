// The stack a provisioning test runs against, on a database and a data dir of its own.
// Two ways in, one per kind of test:
// - startProvisioningPlatform: API + worker started as `npm start` starts them (no console),
//   logged in as the admin, for tests that go through the API as a user does;
// - startWorkerStack: the control plane's tables and queue (fixtures.ts) with worker
//   processes the test starts and kills itself, for tests that drive the worker directly.
// stop() deletes the instances a test leaves, even after a failure, before it drops the
// database: an instance left running would keep its VM and its address on the bridge.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBasaltClient, type BasaltClient, type Schemas } from '@basalt/api-client';
import { ROOT } from '../../support/env.js';
import { createDatabase } from '../../support/database.js';
import { describedStore, startStackObjectStore, type StackObjectStore } from '../../support/object-store.js';
import { deleteAllInstances, openControlPlane, type ControlPlane } from './fixtures.js';
import { MASTER_KEY, startWorker, type WorkerProcess } from './worker-process.js';

type Instance = Schemas['InstanceDto'];
type Operation = Schemas['OperationDto'];

/** A database and a data dir of one test file. */
interface TestState {
  databaseUrl: string;
  dataDir: string;
  remove(): Promise<void>;
}

/** Runs `start` on a fresh TestState, removing the state again when `start` throws. */
async function withTestState<T>(prefix: string, start: (state: TestState) => Promise<T>): Promise<T> {
  const database = await createDatabase(prefix);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `basalt-${prefix}-`));
  const state: TestState = {
    databaseUrl: database.url,
    dataDir,
    remove: async () => {
      await database.drop();
      removeDataDir(dataDir);
    },
  };
  try {
    return await start(state);
  } catch (error) {
    await state.remove().catch(() => {});
    throw error;
  }
}

/**
 * Removes a test's data dir unless a VM is left in it: removing files through a VM's
 * mounted overlay would leave the VM running without its state.
 */
function removeDataDir(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  const vms = path.join(dataDir, 'vms');
  const left = fs.existsSync(vms) ? fs.readdirSync(vms) : [];
  if (left.length > 0) {
    console.warn(`leaving ${dataDir}: VMs still in it (${left.join(', ')})`);
    return;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const POLL_MS = 250;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ProvisioningPlatform {
  apiUrl: string;
  /** The test's own database (to check what the platform stored). */
  databaseUrl: string;
  /** Signed in as the admin, whose first project the tests use. */
  client: BasaltClient;
  projectId: string;
  dataDir: string;
  workerLog(): string;
  getInstance(id: string): Promise<Instance>;
  /** Polls until the instance has one of `wanted`; a failed instance throws at once with the worker's log. */
  waitForStatus(id: string, wanted: string[], timeoutMs?: number): Promise<Instance>;
  /** Polls until the operation has finished; returns it, succeeded or failed. */
  waitForOperation(id: string, timeoutMs?: number): Promise<Operation>;
  /** The stack's backup store (`objectStore: true`): where it is and its key pair. */
  objectStore?: StackObjectStore;
  stop(): Promise<void>;
}

/**
 * `env` is given to the API and the worker (quotas, concurrency, intervals). With `worker:
 * false` the test starts (and kills) its own workers on the platform's database and data dir
 * (worker-process.ts startWorker).
 */
export function startProvisioningPlatform(prefix: string, env: NodeJS.ProcessEnv = {}, options: { worker?: boolean; objectStore?: boolean } = {}): Promise<ProvisioningPlatform> {
  return withTestState(prefix, async ({ databaseUrl, dataDir, remove }) => {
    const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
    const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
    const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
    // A backup store of the stack's own (a few seconds, ~120 MB): only for a test that takes backups.
    const objectStore = options.objectStore ? await startStackObjectStore(dataDir) : undefined;
    const platform = await startPlatform({
      objectStore,
      dataDir,
      databaseUrl,
      apiPort: await freePort(),
      consolePort: await freePort(),
      secrets: { adminEmail: admin.email, adminPassword: admin.password, masterKey: MASTER_KEY },
      worker: options.worker ?? true,
      console: false,
      env,
    });
    const anonymous = createBasaltClient({ baseUrl: platform.apiUrl });
    const { data, response } = await anonymous.POST('/v1/auth/login', { body: admin });
    if (!data) {
      await platform.stop();
      throw new Error(`login failed: ${response.status}`);
    }
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const client = createBasaltClient({ baseUrl: platform.apiUrl, sessionCookie: cookie });
    const projectId = data.projects[0]!.id;

    const workerLog = () => {
      try {
        return fs.readFileSync(path.join(dataDir, 'logs', 'worker.log'), 'utf8');
      } catch {
        return '';
      }
    };
    const getInstance = async (id: string) => {
      const { data, response } = await client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } });
      if (!data) throw new Error(`GET instance: ${response.status}`);
      return data;
    };
    const waitForStatus = async (id: string, wanted: string[], timeoutMs = 180_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = await getInstance(id);
        if (wanted.includes(current.status)) return current;
        if (['create_failed', 'error'].includes(current.status)) {
          throw new Error(`instance is ${current.status}: ${JSON.stringify(current.fault)}\n${workerLog().slice(-3000)}`);
        }
        if (Date.now() > deadline) throw new Error(`instance still ${current.status} after ${timeoutMs} ms`);
        await sleep(POLL_MS);
      }
    };
    const waitForOperation = async (id: string, timeoutMs = 180_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { data } = await client.GET('/v1/operations/{id}', { params: { path: { id } } });
        if (data && (data.status === 'succeeded' || data.status === 'failed')) return data;
        if (Date.now() > deadline) throw new Error(`operation ${id} not finished after ${timeoutMs} ms`);
        await sleep(POLL_MS);
      }
    };
    /** Deletes, through the API, every instance the test left (the list hides deleted ones). */
    const deleteLeftInstances = async () => {
      const { data } = await client.GET('/v1/projects/{project}/instances', { params: { path: { project: projectId } } });
      const left = data?.items ?? [];
      for (const { id } of left) await client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } });
      for (const { id } of left) await waitForStatus(id, ['deleted'], 240_000).catch(() => {});
    };

    return {
      apiUrl: platform.apiUrl,
      databaseUrl,
      client,
      projectId,
      dataDir,
      workerLog,
      getInstance,
      waitForStatus,
      waitForOperation,
      objectStore: objectStore && describedStore(objectStore),
      stop: async () => {
        await deleteLeftInstances().catch(() => {});
        await platform.stop();
        await objectStore?.stop();
        await remove();
      },
    };
  });
}

/** The control plane's tables and queue, and the worker processes a test starts on them. */
export interface WorkerStack extends ControlPlane {
  databaseUrl: string;
  dataDir: string;
  /** The worker started last: the one taking jobs now. Throws before the first is started. */
  readonly worker: WorkerProcess;
  /** Starts a worker logging to logs/<name>.log; `extraEnv` goes over the stack's worker env. */
  startWorker(name?: string, extraEnv?: NodeJS.ProcessEnv): WorkerProcess;
  stop(): Promise<void>;
}

/** `workerEnv` is given to every worker of the stack, the cleaner that stop() may start included. */
export function startWorkerStack(prefix: string, workerEnv: NodeJS.ProcessEnv = {}): Promise<WorkerStack> {
  return withTestState(prefix, async ({ databaseUrl, dataDir, remove }) => {
    const cp = await openControlPlane(databaseUrl);
    const workers: WorkerProcess[] = [];
    const start = (name = 'worker', extraEnv: NodeJS.ProcessEnv = {}) => {
      const worker = startWorker(databaseUrl, dataDir, name, { ...workerEnv, ...extraEnv });
      workers.push(worker);
      return worker;
    };
    return {
      database: cp.database,
      boss: cp.boss,
      projectId: cp.projectId,
      databaseUrl,
      dataDir,
      get worker() {
        const current = workers.at(-1);
        if (!current) throw new Error('no worker started yet');
        return current;
      },
      startWorker: start,
      stop: async () => {
        // No worker, no VM to delete. Deleting needs a live worker: one the test killed
        // last is replaced by a cleaner.
        if (workers.length > 0) {
          if (!workers.at(-1)!.running()) start('cleaner');
          await deleteAllInstances(cp);
        }
        for (const worker of workers) await worker.kill();
        await cp.close();
        await remove();
      },
    };
  });
}
