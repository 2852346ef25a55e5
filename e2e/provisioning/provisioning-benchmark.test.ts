// The provisioning benchmark of issue 5's note: create → running for one instance (p50
// of BASALT_BENCH_RUNS runs) and for 10 created at once. Slow, so it runs only when
// asked: BASALT_PROVISION_BENCH=1 npm test -w @basalt/e2e -- provisioning-benchmark
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkerStack, type WorkerStack } from './support/stack.js';
import { createInstance, getInstance, requestOperation, waitForOperation } from './support/fixtures.js';

const RUNS = Number(process.env.BASALT_BENCH_RUNS ?? 5);
const AT_ONCE = Number(process.env.BASALT_BENCH_AT_ONCE ?? 10);

let stack: WorkerStack;

beforeAll(async () => {
  stack = await startWorkerStack('prov_bench');
  stack.startWorker();
});

afterAll(async () => {
  await stack?.stop();
});

function stepTimes(steps: unknown): string {
  return (steps as { name: string; started_at: string; finished_at: string }[])
    .map((s) => `${s.name} ${((Date.parse(s.finished_at) - Date.parse(s.started_at)) / 1000).toFixed(1)}s`)
    .join(', ');
}

async function createAndWait(name: string): Promise<{ id: string; seconds: number; steps: string }> {
  const started = Date.now();
  const instance = await createInstance(stack, name, 'kv.standard.small');
  const operation = await waitForOperation(stack, instance.operationId, 300_000);
  const seconds = (Date.now() - started) / 1000;
  expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
  expect((await getInstance(stack, instance.id)).status).toBe('running');
  return { id: instance.id, seconds, steps: stepTimes(operation.steps) };
}

async function deleteAll(ids: string[]): Promise<void> {
  const operations = await Promise.all(ids.map((id) => requestOperation(stack, id, 'delete')));
  for (const id of operations) expect((await waitForOperation(stack, id, 300_000)).status).toBe('succeeded');
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

describe.runIf(process.env.BASALT_PROVISION_BENCH === '1')('provisioning benchmark', () => {
  test(`one instance at a time, ${RUNS} runs`, { timeout: 900_000 }, async () => {
    const seconds: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await createAndWait(`one-${i}`);
      seconds.push(run.seconds);
      console.log(`run ${i + 1}: ${run.seconds.toFixed(1)} s (${run.steps})`);
      await deleteAll([run.id]);
    }
    console.log(`create → running, one at a time: p50 ${p50(seconds).toFixed(1)} s, max ${Math.max(...seconds).toFixed(1)} s`);
  });

  test(`${AT_ONCE} instances at once`, { timeout: 900_000 }, async () => {
    const started = Date.now();
    const runs = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => createAndWait(`many-${i}`)));
    const all = (Date.now() - started) / 1000;
    const seconds = runs.map((r) => r.seconds);
    console.log(`${AT_ONCE} at once: all running after ${all.toFixed(1)} s; p50 ${p50(seconds).toFixed(1)} s, max ${Math.max(...seconds).toFixed(1)} s`);
    await deleteAll(runs.map((r) => r.id));
  });
});
