// The operations a per-type report's job runs on its temporary instance (create, one benchmark
// per suite, delete), each a real operation of that instance carried out by the queue's own
// handler (jobs/provision.ts, jobs/benchmark.ts, jobs/delete.ts), in the report job's slot.
// Resumable: a retried report job (or a reconciling worker) finds the operation an earlier
// attempt started and finishes it, or waits while another worker holds it.
import type { BenchmarkRow, InstanceRow, OperationRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import type { Outcome } from '../jobs/run-operation.js';

/** handlers.ts's `handle`, passed in (handlers.ts imports the report job: no import cycle). */
export type RunHandler = (ctx: JobContext, queue: 'provision' | 'delete' | 'benchmark', payload: { instance_id: string; operation_id: string } & Record<string, unknown>) => Promise<Outcome>;

/** How long a report waits for a child operation another worker holds. */
const CHILD_WAIT_MS = 60 * 60_000;
const CHILD_POLL_MS = 1_000;

type ChildType = Extract<OperationRow['type'], 'create' | 'delete' | 'benchmark'>;
const QUEUE_OF: Record<ChildType, Parameters<RunHandler>[1]> = { create: 'provision', delete: 'delete', benchmark: 'benchmark' };

/** The newest operation of `type` on the instance. */
async function newest(ctx: JobContext, instance: InstanceRow, type: ChildType): Promise<OperationRow | undefined> {
  const rows = await ctx.repo.operations().listForInstance(instance.projectId, instance.id, 100);
  return rows.find((op) => op.type === type);
}

/** Runs `operation` through its queue's handler until it has finished; throws when it failed. */
async function carryOut(ctx: JobContext, handle: RunHandler, step: string, operation: OperationRow, job: Record<string, unknown> = {}): Promise<void> {
  const payload = { ...job, instance_id: operation.instanceId!, operation_id: operation.id };
  const deadline = Date.now() + CHILD_WAIT_MS;
  for (;;) {
    const outcome = await handle(ctx, QUEUE_OF[operation.type as ChildType], payload);
    if (outcome !== 'busy') break;
    if (Date.now() > deadline) throw new StepError(step, `${operation.type} operation ${operation.id} stayed with another worker for ${CHILD_WAIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, CHILD_POLL_MS));
  }
  const done = await ctx.repo.getOperation(operation.id);
  if (done?.status !== 'succeeded') {
    const error = (done?.error ?? {}) as { message?: string; exit_code?: number | null; output_tail?: string };
    throw new StepError(step, `${operation.type} operation ${operation.id} ${done?.status ?? 'vanished'}: ${error.message ?? 'no message'}`, error.exit_code ?? null, error.output_tail ?? '');
  }
}

/** Creates or deletes the instance: the operation an earlier attempt left unfinished, else a new one. */
export async function runLifecycle(ctx: JobContext, handle: RunHandler, step: string, instance: InstanceRow, type: 'create' | 'delete'): Promise<void> {
  let operation = await newest(ctx, instance, type);
  if (operation?.status === 'succeeded' && (type === 'delete' || instance.status === 'running')) return;
  if (!operation || operation.status === 'succeeded' || operation.status === 'failed') {
    operation = await ctx.repo.operations().insert({ projectId: instance.projectId, instanceId: instance.id, type, params: {} });
  }
  await carryOut(ctx, handle, step, operation);
}

/**
 * Runs `suite` on the instance unless an earlier attempt already measured it; returns its run.
 * `beforeStart` runs before a new run of the suite starts (not when an unfinished one resumes).
 */
export async function runSuite(ctx: JobContext, handle: RunHandler, step: string, instance: InstanceRow, suite: string, beforeStart?: () => Promise<void>): Promise<BenchmarkRow> {
  const benchmarks = ctx.repo.benchmarks();
  const runs = await benchmarks.listForInstance(instance.projectId, instance.id);
  let run = runs.find((r) => r.workload === suite);
  if (run?.status === 'succeeded') return run;
  const unfinished = run?.operationId ? await ctx.repo.getOperation(run.operationId) : undefined;
  let operation: OperationRow;
  if (run && unfinished && (unfinished.status === 'pending' || unfinished.status === 'running')) {
    operation = unfinished;
  } else {
    await beforeStart?.();
    run = await benchmarks.insert({ projectId: instance.projectId, instanceId: instance.id, instanceType: instance.instanceType, tool: 'basalt-bench', workload: suite, parameters: {} });
    operation = await ctx.repo.operations().insert({
      projectId: instance.projectId,
      instanceId: instance.id,
      type: 'benchmark',
      params: { benchmark_id: run.id, workload: suite },
    });
    await benchmarks.linkOperation(run.id, operation.id);
  }
  await carryOut(ctx, handle, step, operation, { benchmark_id: run.id });
  return (await benchmarks.getForJob(run.id))!;
}
