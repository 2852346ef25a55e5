// The frame of every instance job: take the operation's lease (so one worker works on it
// at a time), skip what is already finished, wait for the instance's turn (instance-turn.ts),
// run the steps (a retry resuming past those an earlier attempt finished), and record the outcome — on failure the step, exit status and output tail
// go to the operation, and to the instance's `fault` when its kind owns the instance's status
// (operation-kinds.ts); then hand the instance to the next operation in turn.
import { operationLeaseKey, statusOwner, stepsOf, type InstanceJobPayload, type InstancePatch, type InstanceRow, type InstanceTypeRow, type OperationRow, type OperationType, type RegionRow, type StepName } from '@basalt/db';
import type { JobContext } from '../context.js';
import { OperationRun, Preempted } from '../operation.js';
import { faultOf, StepError } from '../errors.js';
import { syncScrapeTargets } from '../monitoring/scrape-targets.js';
import { takeTurn, turnCameMeanwhile } from './instance-turn.js';

export interface InstanceWork<K extends OperationType = OperationType> {
  instance: InstanceRow;
  region: RegionRow;
  type: InstanceTypeRow;
  /** Runs the steps the catalogue names for this kind (operation-kinds.ts), and only those. */
  run: OperationRun<StepName<K>>;
  /**
   * Writes the instance row as this operation may (ProvisioningRepository.updateInstanceAs):
   * status, health and fault only while the instance is in the status this kind owns.
   */
  write: (patch: InstancePatch) => Promise<boolean>;
}

export interface OperationSpec<K extends OperationType> {
  /** The operation's kind: its steps and turn come from the catalogue (operation-kinds.ts). */
  kind: K;
  /** The kind's variant this run is (a failover's mode), when it has variants. */
  variant?: string;
  work: (work: InstanceWork<K>) => Promise<void>;
  /** Records what the operation's outcome means for the rows the job owns, before the
   * operation says it has finished: whoever waits on the operation then reads them settled. */
  settle?: (outcome: 'succeeded' | 'failed') => Promise<void>;
}

export type Outcome = 'succeeded' | 'failed' | 'skipped' | 'busy';

/** The switchover steps after `stop_writes`: a run is not preempted there (its primary refuses writes). */
const MID_SWITCHOVER = new Set(['catch_up', 'promote', 'move_endpoint']);

/** How many times a waiting operation looks again when its turn came while it looked. */
const TURN_LOOKS = 5;

/** How long a failover the monitor started waits for the instance's lease (a preempted operation's step to end). */
const RESCUE_LEASE_WAIT_MS = 15 * 60_000;
const RESCUE_LEASE_POLL_MS = 200;

export async function runOperation<K extends OperationType>(ctx: JobContext, payload: InstanceJobPayload, spec: OperationSpec<K>): Promise<Outcome> {
  const { inTurn } = stepsOf(spec.kind, spec.variant);
  const rescue = spec.kind === 'failover' && !inTurn;
  const since = Date.now();
  for (let look = 1; ; look++) {
    const attempt = await attemptOperation(ctx, payload, spec);
    if (attempt.outcome !== 'waiting') return attempt.outcome;
    // A failover is never queued: the operation holding the instance gives it up at its next
    // step (its beforeStep sees this failover), and the failover takes the lease at once then.
    if (rescue && Date.now() - since < RESCUE_LEASE_WAIT_MS) {
      if (look === 1) ctx.log(`[${payload.operation_id}] failover waits for the instance's current step to end`);
      await new Promise((resolve) => setTimeout(resolve, RESCUE_LEASE_POLL_MS));
      continue;
    }
    // The operation's own lease is released by now: whoever hands the instance over may start it.
    if (look >= TURN_LOOKS || !(await turnCameMeanwhile(ctx, attempt.operation, inTurn))) {
      ctx.log(`[${payload.operation_id}] waits for its turn on instance ${payload.instance_id} (${attempt.why})`);
      return 'busy';
    }
  }
}

type Attempt = { outcome: Outcome } | { outcome: 'waiting'; operation: OperationRow; why: string };

async function attemptOperation<K extends OperationType>(ctx: JobContext, payload: InstanceJobPayload, spec: OperationSpec<K>): Promise<Attempt> {
  const list = stepsOf(spec.kind, spec.variant);
  const lease = await ctx.leases.tryLease(operationLeaseKey(payload.operation_id));
  if (!lease) {
    ctx.log(`[${payload.operation_id}] another worker holds this operation; leaving it to them`);
    return { outcome: 'busy' };
  }
  try {
    const operation = await ctx.repo.getOperation(payload.operation_id);
    if (!operation) {
      ctx.log(`[${payload.operation_id}] no such operation; job dropped`);
      return { outcome: 'skipped' };
    }
    if (operation.status === 'succeeded' || operation.status === 'failed') return { outcome: 'skipped' };
    if (operation.type !== spec.kind) throw new Error(`operation ${operation.id} is a ${operation.type}, not a ${spec.kind}: its job is on the wrong queue`);
    const target = await ctx.repo.getInstance(payload.instance_id);
    const unavailable = target && ctx.unavailableRegions.get(target.region);
    if (unavailable) {
      // Left pending for a worker that can serve the region (its reconcile takes it up).
      ctx.log(`[${operation.id}] not taking it: region ${target.region}: ${unavailable}`);
      return { outcome: 'busy' };
    }

    // A failover the monitor started goes first; this one is started again when it is done.
    if (spec.kind !== 'failover' && (await ctx.repo.operations().rescuingFailover(payload.instance_id))) {
      return { outcome: 'waiting', operation, why: 'a failover has the instance' };
    }
    const turn = await takeTurn(ctx, operation, list.inTurn);
    if (!('lease' in turn)) {
      return { outcome: 'waiting', operation, why: turn.waiting === 'turn' ? 'an operation asked before it has not finished' : 'another job holds the instance' };
    }
    const owner = statusOwner(operation.type);
    const write = (patch: InstancePatch) => ctx.repo.updateInstanceAs(operation.type, payload.instance_id, patch);
    const run = new OperationRun<StepName<K>>(ctx.repo, operation.id, list, ctx.log);
    // Failover first: a failover the monitor started takes the instance from any other
    // operation at that one's next step (it waits for the lease meanwhile, waitForLease).
    if (spec.kind !== 'failover') {
      run.beforeStep = async (name) => {
        // Not between a switchover's refusal of writes and its promotion: the primary would stay read-only.
        if (MID_SWITCHOVER.has(name)) return;
        const rescue = await ctx.repo.operations().rescuingFailover(payload.instance_id);
        if (rescue) throw new Preempted(name, rescue.id);
      };
    }
    let step = 'load';
    try {
      const latest = await ctx.repo.getOperation(operation.id);
      if (latest?.status === 'succeeded' || latest?.status === 'failed') return { outcome: 'skipped' };
      // A retry resumes past what the attempt before it recorded finished (operation.ts).
      await run.start(latest?.steps);
      const instance = await ctx.repo.getInstance(payload.instance_id);
      if (!instance) throw new StepError(step, `instance ${payload.instance_id} does not exist`);
      const region = await ctx.catalog.getRegion(instance.region);
      if (!region) throw new StepError(step, `region ${instance.region} does not exist`);
      const type = await ctx.catalog.getInstanceType(instance.instanceType);
      if (!type) throw new StepError(step, `instance type ${instance.instanceType} does not exist`);
      await spec.work({ instance, region, type, run, write });
      await spec.settle?.('succeeded');
      await run.succeed();
      return { outcome: 'succeeded' };
    } catch (error) {
      if (error instanceof Preempted) {
        ctx.log(`[${operation.id}] ${error.message}: giving the instance up`);
        await run.pause(error.message);
        return { outcome: 'busy' };
      }
      step = error instanceof StepError ? error.step : step;
      const fault = { ...faultOf(step, error), operation_id: operation.id };
      ctx.log(`[${operation.id}] failed at ${fault.step}: ${fault.message}`);
      // Only a kind that owns the instance's status says the instance failed, and only while
      // the status is still its own; any other leaves the instance as it found it.
      if (owner) await write(owner.failed ? { status: owner.failed, fault } : { fault });
      await spec.settle?.('failed').catch((settleError: Error) => ctx.log(`[${operation.id}] settling the failure: ${settleError.message}`));
      await run.fail(fault);
      return { outcome: 'failed' };
    } finally {
      // Whatever the operation did (created, resized, restarted, deleted), Prometheus now
      // scrapes what the instance row says, while the instance is still this worker's.
      await syncScrapeTargets(ctx, payload.instance_id).catch((error) => ctx.log(`[${operation.id}] scrape targets: ${(error as Error).message}`));
      await turn.lease.release();
      ctx.handOver?.(payload.instance_id);
    }
  } finally {
    await lease.release();
  }
}
