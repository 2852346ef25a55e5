// PostgreSQL stopped for 30 s while an instance is being created, then started again (issue 45),
// under the platform as `npm start` runs it (its processes restarted when they die): meanwhile
// the API answers 503 with the house error body and a Retry-After, without dying; the worker,
// which must not go on without its leases, exits, is started again once the database is back,
// and finishes the operation; nobody restarts anything by hand. The cluster is this file's
// own (the shared test cluster serves every other file).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBasaltClient, type BasaltClient, type Schemas } from '@basalt/api-client';
import { ROOT } from '../support/env.js';
import { MASTER_KEY } from '../provisioning/support/worker-process.js';

interface Postgres {
  url: string;
  port: number;
  stop(): Promise<void>;
}
interface Proc {
  name: string;
  restarts: number;
  exited: boolean;
}

const lib = {
  postgres: (await import(path.join(ROOT, 'scripts', 'lib', 'postgres.mjs'))) as { startPostgres(options: Record<string, unknown>): Promise<Postgres> },
  platform: (await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'))) as {
    startPlatform(options: Record<string, unknown>): Promise<{ apiUrl: string; procs: Proc[]; stop(): Promise<void> }>;
  },
  net: (await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'))) as { freePort(): Promise<number> },
};

const OUTAGE_MS = 30_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-pg-restart-'));
// initdb runs as the postgres user (under root): it must reach the cluster's directory.
fs.chmodSync(dataDir, 0o755);
const pgDir = path.join(dataDir, 'pg');
const password = `pg-${Math.random().toString(36).slice(2)}`;
const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
let postgres: Postgres | undefined;
let platform: Awaited<ReturnType<typeof lib.platform.startPlatform>> | undefined;
let client: BasaltClient;
let projectId = '';
const restartLog: string[] = [];

beforeAll(async () => {
  postgres = await lib.postgres.startPostgres({ dir: pgDir, database: 'basalt', password, url: '' });
  platform = await lib.platform.startPlatform({
    dataDir,
    databaseUrl: postgres.url,
    apiPort: await lib.net.freePort(),
    consolePort: await lib.net.freePort(),
    secrets: { adminEmail: admin.email, adminPassword: admin.password, masterKey: MASTER_KEY },
    console: false,
    env: { BASALT_LOCAL_VM_KIND: 'nspawn' },
    // As npm start does: a process that died is started again (with backoff).
    onRestart: (proc: Proc, code: unknown, delayMs: number) => restartLog.push(`${proc.name} exited (${String(code)}); again in ${delayMs} ms`),
  });
  const anonymous = createBasaltClient({ baseUrl: platform.apiUrl });
  const { data, response } = await anonymous.POST('/v1/auth/login', { body: admin });
  if (!data) throw new Error(`login failed: ${response.status}`);
  client = createBasaltClient({ baseUrl: platform.apiUrl, sessionCookie: (response.headers.get('set-cookie') ?? '').split(';')[0]! });
  projectId = data.projects[0]!.id;
}, 300_000);

afterAll(async () => {
  const left = projectId ? ((await client.GET('/v1/projects/{project}/instances', { params: { path: { project: projectId } } }).catch(() => undefined))?.data?.items ?? []) : [];
  for (const { id } of left) await client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } });
  for (const { id } of left) await waitFor(async () => (await getInstance(id))?.status === 'deleted', 240_000).catch(() => {});
  await platform?.stop();
  await postgres?.stop().catch(() => {});
  if (!fs.existsSync(path.join(dataDir, 'vms')) || fs.readdirSync(path.join(dataDir, 'vms')).length === 0) fs.rmSync(dataDir, { recursive: true, force: true });
}, 300_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms; restarts: ${restartLog.join('; ')}\n${workerLog().slice(-3000)}`);
    await sleep(500);
  }
}

async function getInstance(id: string): Promise<Schemas['InstanceDto'] | undefined> {
  return (await client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: id } } })).data;
}

function workerLog(): string {
  try {
    return fs.readFileSync(path.join(dataDir, 'logs', 'worker.log'), 'utf8');
  } catch {
    return '';
  }
}

describe('PostgreSQL stopped for 30 s mid-operation', () => {
  test('the API answers 503 meanwhile and stays up; the create then finishes without anyone restarting anything', async () => {
    const { data, response } = await client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: projectId } },
      body: { name: 'outage', instance_type: 'kv.standard.small', region: 'local' },
    });
    expect(response.status).toBe(202);
    const instanceId = data!.instance.id;
    const operationId = data!.operation!.id;
    // Down while the worker is in the middle of it: once Terraform has started.
    await waitFor(async () => {
      const operation = (await client.GET('/v1/operations/{id}', { params: { path: { id: operationId } } })).data;
      return (operation?.steps ?? []).some((step) => step.name === 'terraform_apply' && step.status !== 'pending');
    }, 120_000);
    const api = platform!.procs.find((p) => p.name === 'api')!;
    await postgres!.stop();
    const stoppedAt = Date.now();

    const answers: number[] = [];
    let body: unknown;
    let retryAfter: string | null = null;
    while (Date.now() - stoppedAt < OUTAGE_MS) {
      const got = await client.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project: projectId, instance: instanceId } } });
      answers.push(got.response.status);
      if (got.response.status === 503) [body, retryAfter] = [got.error, got.response.headers.get('retry-after')];
      await sleep(2_000);
    }
    console.log(`database down ${OUTAGE_MS / 1000} s: the API answered ${[...new Set(answers)].join(', ')}; ${restartLog.join('; ')}`);
    expect(new Set(answers)).toEqual(new Set([503]));
    expect(body).toMatchObject({ code: 'database_unavailable', message: expect.stringMatching(/database is unreachable/), request_id: expect.any(String) });
    expect(retryAfter).toBe('5');
    expect(api.restarts).toBe(0);

    postgres = await lib.postgres.startPostgres({ dir: pgDir, database: 'basalt', password, url: '', port: postgres!.port });
    await waitFor(async () => (await getInstance(instanceId))?.status === 'running', 240_000);
    const operation = (await client.GET('/v1/operations/{id}', { params: { path: { id: operationId } } })).data!;
    expect(operation.status).toBe('succeeded');
    // The worker lost its leases with the database and exited; it was started again, and
    // its recovery pass finished the create.
    expect(restartLog.some((line) => line.startsWith('worker exited'))).toBe(true);
    expect(workerLog()).toMatch(new RegExp(`reconciled create operation ${operationId}: succeeded`));
    expect(api.restarts).toBe(0);
    // What Terraform could not save while the database was down stays in the instance's own
    // work dir and is pushed before the retry, never written into the source tree.
    expect(fs.readdirSync(path.join(ROOT, 'infra', 'terraform', 'stack')).filter((name) => !name.endsWith('.tf'))).toEqual([]);
    console.log(`database back: the create finished ${((Date.now() - stoppedAt) / 1000).toFixed(0)} s after the database stopped`);
  }, 420_000);
});
