// The frame of every instance job: take the operation's lease (so one worker works on it
// at a time), skip what is already finished, run the steps, and record the outcome —
// on failure the step, exit status and output tail go to the instance's `fault`.
import { instanceLeaseKey, operationLeaseKey, type InstanceJobPayload, type InstanceRow, type InstanceStatus, type InstanceTypeRow, type Lease, type RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { OperationRun } from '../operation.js';
import { faultOf, StepError } from '../errors.js';
import { syncScrapeTargets } from '../monitoring/scrape-targets.js';

export interface InstanceWork {
  instance: InstanceRow;
  region: RegionRow;
  type: InstanceTypeRow;
  run: OperationRun;
}

export interface OperationSpec {
  steps: string[];
  /** Status the instance takes when the operation fails; null leaves the instance as it is (a failed benchmark says nothing about it). */
  failureStatus: InstanceStatus | null;
  work: (work: InstanceWork) => Promise<void>;
  /** Records what the operation's outcome means for the rows the job owns, before the
   * operation says it has finished: whoever waits on the operation then reads them settled. */
  settle?: (outcome: 'succeeded' | 'failed') => Promise<void>;
}

export type Outcome = 'succeeded' | 'failed' | 'skipped' | 'busy';

/** How long an operation waits for another one on the same instance to finish. */
const INSTANCE_WAIT_MS = 30 * 60_000;

async function leaseInstance(ctx: JobContext, instanceId: string, operationId: string): Promise<Lease> {
  const deadline = Date.now() + INSTANCE_WAIT_MS;
  let told = false;
  for (;;) {
    const lease = await ctx.leases.tryLease(instanceLeaseKey(instanceId));
    if (lease) return lease;
    if (!told) {
      ctx.log(`[${operationId}] waiting for another operation on instance ${instanceId}`);
      told = true;
    }
    if (Date.now() > deadline) throw new StepError('load', `another operation kept instance ${instanceId} busy for ${INSTANCE_WAIT_MS / 60_000} minutes`, null, '', true);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export async function runOperation(ctx: JobContext, payload: InstanceJobPayload, spec: OperationSpec): Promise<Outcome> {
  const lease = await ctx.leases.tryLease(operationLeaseKey(payload.operation_id));
  if (!lease) {
    ctx.log(`[${payload.operation_id}] another worker holds this operation; leaving it to them`);
    return 'busy';
  }
  try {
    const operation = await ctx.repo.getOperation(payload.operation_id);
    if (!operation) {
      ctx.log(`[${payload.operation_id}] no such operation; job dropped`);
      return 'skipped';
    }
    if (operation.status === 'succeeded' || operation.status === 'failed') return 'skipped';
    const target = await ctx.repo.getInstance(payload.instance_id);
    const unavailable = target && ctx.unavailableRegions.get(target.region);
    if (unavailable) {
      // Left pending for a worker that can serve the region (its reconcile takes it up).
      ctx.log(`[${operation.id}] not taking it: region ${target.region}: ${unavailable}`);
      return 'busy';
    }

    // Operations on one instance run one after the other (a delete waits for a provision).
    const instanceLease = await leaseInstance(ctx, payload.instance_id, operation.id);
    const run = new OperationRun(ctx.repo, operation.id, spec.steps, ctx.log);
    let step = 'load';
    try {
      const latest = await ctx.repo.getOperation(operation.id);
      if (latest?.status === 'succeeded' || latest?.status === 'failed') return 'skipped';
      await run.start();
      const instance = await ctx.repo.getInstance(payload.instance_id);
      if (!instance) throw new StepError(step, `instance ${payload.instance_id} does not exist`);
      const region = await ctx.catalog.getRegion(instance.region);
      if (!region) throw new StepError(step, `region ${instance.region} does not exist`);
      const type = await ctx.catalog.getInstanceType(instance.instanceType);
      if (!type) throw new StepError(step, `instance type ${instance.instanceType} does not exist`);
      await spec.work({ instance, region, type, run });
      await spec.settle?.('succeeded');
      await run.succeed();
      return 'succeeded';
    } catch (error) {
      step = error instanceof StepError ? error.step : step;
      const fault = { ...faultOf(step, error), operation_id: operation.id };
      ctx.log(`[${operation.id}] failed at ${fault.step}: ${fault.message}`);
      // An instance being deleted keeps that status (a second DELETE runs the delete again);
      // the fault tells why it is still there.
      if (spec.failureStatus !== null) {
        const written = await ctx.repo.updateInstance(payload.instance_id, { status: spec.failureStatus, fault });
        if (!written) await ctx.repo.updateInstance(payload.instance_id, { fault });
      }
      await spec.settle?.('failed').catch((settleError: Error) => ctx.log(`[${operation.id}] settling the failure: ${settleError.message}`));
      await run.fail(fault);
      return 'failed';
    } finally {
      // Whatever the operation did (created, resized, restarted, deleted), Prometheus now
      // scrapes what the instance row says, while the instance is still this worker's.
      await syncScrapeTargets(ctx, payload.instance_id).catch((error) => ctx.log(`[${operation.id}] scrape targets: ${(error as Error).message}`));
      await instanceLease.release();
    }
  } finally {
    await lease.release();
  }
}
