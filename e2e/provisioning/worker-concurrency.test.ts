// A worker that runs two jobs at a time takes eight operations at once and finishes every
// one (issue 11): its leases sit on a connection of their own and its jobs share one bound,
// so neither waiting operations nor the reconciler can take the connections the running
// jobs need. Process VMs keep the run short; the worker's pool is what is under test.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, getInstance, waitForOperation } from './support/fixtures.js';

const OPERATIONS = 8;
let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack('prov_concurrency', { BASALT_LOCAL_VM_KIND: 'process', BASALT_WORKER_CONCURRENCY: '2' });
  stack.startWorker('two-at-a-time');
});

afterAll(async () => {
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
