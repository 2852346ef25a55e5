// A worker that runs two jobs at a time takes eight operations at once and finishes every
// one (issue 11): its leases sit on a connection of their own and its jobs share one bound,
// so neither waiting operations nor the reconciler can take the connections the running
// jobs need. Process VMs keep the run short; the worker's pool is what is under test.
// Then the README's layout of more than one of each (issue 45): a second worker and two API
// processes on the same PostgreSQL, started at once; both APIs answer and share their state,
// and the two workers share the queue.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBasaltClient } from '@basalt/api-client';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, getInstance, waitForOperation } from './support/fixtures.js';
import { startApi, type ApiProcess } from './support/api-process.js';

const OPERATIONS = 8;
let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack('prov_concurrency', { BASALT_LOCAL_VM_KIND: 'process', BASALT_WORKER_CONCURRENCY: '2' });
  stack.startWorker('two-at-a-time');
});

let apis: ApiProcess[] = [];

afterAll(async () => {
  await Promise.all(apis.map((api) => api.stop()));
  await stack?.stop();
}, 600_000);

describe('a worker with concurrency 2', () => {
  test(`finishes ${OPERATIONS} operations queued at once`, async () => {
    const started = Date.now();
    const created = await Promise.all(Array.from({ length: OPERATIONS }, (_, i) => createInstance(stack, `many-${i}`, 'kv.standard.small')));
    const operations = await Promise.all(created.map((c) => waitForOperation(stack, c.operationId, 540_000)));
    console.log(`${OPERATIONS} creates with concurrency 2: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(operations.map((o) => o.status)).toEqual(Array(OPERATIONS).fill('succeeded'));
    for (const c of created) expect((await getInstance(stack, c.id)).status).toBe('running');
    // Never more than two at a time: the worker logs each job's end; the steps' start times overlap at most pairwise.
    const windows = operations.map((o) => [o.startedAt!.getTime(), o.finishedAt!.getTime()] as const);
    const most = Math.max(...windows.map(([start]) => windows.filter(([s, f]) => s <= start && start < f).length));
    expect(most).toBeLessThanOrEqual(2);
  }, 600_000);
});

describe('two workers and two API processes on one PostgreSQL', () => {
  test('both APIs answer and share their state; both workers take jobs', async () => {
    const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
    // Started together: migrations and the first admin are made once whichever API comes first.
    apis = await Promise.all(['api-a', 'api-b'].map((name) => startApi(stack.databaseUrl, stack.dataDir, name, admin)));
    const sessions = [];
    for (const api of apis) {
      const anonymous = createBasaltClient({ baseUrl: api.url });
      const { data, response } = await anonymous.POST('/v1/auth/login', { body: admin });
      expect(response.status, api.log().slice(-2000)).toBe(200);
      sessions.push({ api, projects: data!.projects, client: createBasaltClient({ baseUrl: api.url, sessionCookie: (response.headers.get('set-cookie') ?? '').split(';')[0]! }) });
    }
    expect(sessions[1]!.projects.map((p) => p.id)).toEqual(sessions[0]!.projects.map((p) => p.id));
    // What one API writes, the other reads at once: the state is PostgreSQL's, not a process's.
    const name = `shared-${Date.now()}`;
    const made = await sessions[0]!.client.POST('/v1/projects', { body: { name } });
    expect(made.response.status).toBe(201);
    const listed = await sessions[1]!.client.GET('/v1/projects');
    expect(listed.data!.items.map((p) => p.name)).toContain(name);
    // A session made through one API is good on the other (sessions are rows, as behind a load balancer).
    const cookie = (await createBasaltClient({ baseUrl: apis[0]!.url }).POST('/v1/auth/login', { body: admin })).response.headers.get('set-cookie')!.split(';')[0]!;
    const across = await createBasaltClient({ baseUrl: apis[1]!.url, sessionCookie: cookie }).GET('/v1/projects');
    expect(across.response.status).toBe(200);

    const second = stack.startWorker('second', { BASALT_WORKER_CONCURRENCY: '2' });
    const created = await Promise.all(Array.from({ length: 4 }, (_, i) => createInstance(stack, `shared-${i}`, 'kv.standard.small')));
    const operations = await Promise.all(created.map((c) => waitForOperation(stack, c.operationId, 300_000)));
    expect(operations.map((o) => o.status)).toEqual(Array(4).fill('succeeded'));
    expect(second.log(), 'the second worker took part of the queue').toMatch(/operation_succeeded/);
  }, 420_000);
});
