// Operations on one instance run one at a time, in the order they were asked (issue 45). The
// instance's oldest unfinished operation (OperationsRepository.firstInTurn) is the one whose
// turn it is: it takes the instance's lease and runs. Any other waits without holding a job
// slot: its job ends (`busy`) with the operation left pending, and the operation before it,
// once finished and its lease released, hands the instance over (JobContext.handOver starts
// the next one in turn). A worker that died before handing over leaves that to the recovery
// pass (reconcile.ts), which takes up pending operations that waited too long.
import { instanceLeaseKey, type Lease, type OperationRow } from '@basalt/db';
import type { JobContext } from '../context.js';

/** The instance's lease when the operation may run now, else why it waits. */
export type Turn = { lease: Lease } | { waiting: 'turn' | 'lease' };

/**
 * The instance's lease for `operation` when it is its turn. `inTurn` false: the operation does
 * not wait for the ones asked before it (an automatic failover), only for the lease.
 */
export async function takeTurn(ctx: JobContext, operation: OperationRow, inTurn: boolean): Promise<Turn> {
  if (inTurn && !(await isTurnOf(ctx, operation))) return { waiting: 'turn' };
  const lease = await ctx.leases.tryLease(instanceLeaseKey(operation.instanceId!));
  return lease ? { lease } : { waiting: 'lease' };
}

async function isTurnOf(ctx: JobContext, operation: OperationRow): Promise<boolean> {
  const first = await ctx.repo.operations().firstInTurn(operation.instanceId!);
  return !first || first.id === operation.id;
}

/**
 * Asked after a waiting operation gave its own lease back: could it run now? The operation it
 * waited for may have finished (and handed over, finding the waiting one's lease still held)
 * between the first look and the release; without this second look nobody would start it.
 */
export async function turnCameMeanwhile(ctx: JobContext, operation: OperationRow, inTurn: boolean): Promise<boolean> {
  const turn = await takeTurn(ctx, operation, inTurn);
  if (!('lease' in turn)) return false;
  await turn.lease.release();
  return true;
}
