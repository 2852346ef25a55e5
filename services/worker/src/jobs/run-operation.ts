// The frame of every instance job: take the operation's lease (so one worker works on it
// at a time), skip what is already finished, run the steps, and record the outcome —
// on failure the step, exit status and output tail go to the instance's `fault`.
import type { InstanceJobPayload, InstanceRow, InstanceStatus, InstanceTypeRow, RegionRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { OperationRun } from '../operation.js';
import { faultOf, StepError } from '../errors.js';

export interface InstanceWork {
  instance: InstanceRow;
  region: RegionRow;
  type: InstanceTypeRow;
  run: OperationRun;
}

export interface OperationSpec {
  steps: string[];
  /** Status the instance takes when the operation fails. */
  failureStatus: InstanceStatus;
  work: (work: InstanceWork) => Promise<void>;
}

export type Outcome = 'succeeded' | 'failed' | 'skipped' | 'busy';

export async function runOperation(ctx: JobContext, payload: InstanceJobPayload, spec: OperationSpec): Promise<Outcome> {
  const lease = await ctx.repo.tryLeaseOperation(payload.operation_id);
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

    const run = new OperationRun(ctx.repo, operation.id, spec.steps, ctx.log);
    await run.start();
    let step = 'load';
    try {
      const instance = await ctx.repo.getInstance(payload.instance_id);
      if (!instance) throw new StepError(step, `instance ${payload.instance_id} does not exist`);
      const region = await ctx.catalog.getRegion(instance.region);
      if (!region) throw new StepError(step, `region ${instance.region} does not exist`);
      const type = await ctx.catalog.getInstanceType(instance.instanceType);
      if (!type) throw new StepError(step, `instance type ${instance.instanceType} does not exist`);
      await spec.work({ instance, region, type, run });
      await run.succeed();
      return 'succeeded';
    } catch (error) {
      step = error instanceof StepError ? error.step : step;
      const fault = { ...faultOf(step, error), operation_id: operation.id };
      ctx.log(`[${operation.id}] failed at ${fault.step}: ${fault.message}`);
      await ctx.repo.updateInstance(payload.instance_id, { status: spec.failureStatus, fault });
      await run.fail(fault);
      return 'failed';
    }
  } finally {
    await lease.release();
  }
}
