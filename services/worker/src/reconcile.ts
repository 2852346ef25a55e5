// Finishes what a killed worker left behind. An operation that is `running` (or still
// `pending` long after it was queued) while no live worker holds its lease has lost its
// worker: the handler runs it again — every step is idempotent (Terraform converges,
// the Ansible role changes only what differs) — and the late retry of the dead worker's
// job then finds the operation finished and does nothing. It also starts the operation
// whose turn on an instance has come (startNext: what a finished operation hands over).
import type { JobContext } from './context.js';
import { handle, OPERATION_QUEUES, payloadOf } from './handlers.js';
import type { OperationRow } from '@basalt/db';
import { sweepClientNamespaces } from './benchmark/client-namespace.js';
import { sweepLoopbackSlots } from './benchmark/loopback-slot.js';

/** A pending operation is left to the queue for this long before it counts as lost. */
const PENDING_GRACE_MS = 60_000;

/** Runs one piece of work in one of the worker's job slots (JobSlots.run). */
export type InSlot = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * One worker's recovery passes. A pass starts the orphans it finds and returns: it does not
 * wait for them, so a long one (an hour-long report taken over from a dead worker) never holds
 * up the next pass, which takes up a failover orphaned meanwhile within one interval. An
 * orphan still being handled from an earlier pass is not started again.
 */
export class Reconciler {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly ctx: JobContext,
    private readonly inSlot: InSlot,
  ) {}

  /** Sweeps what killed runs left and starts the orphaned operations; returns how many it started. */
  async pass(): Promise<number> {
    const { ctx } = this;
    // A benchmark client's namespace a killed worker left after its run had finished.
    const swept = await sweepClientNamespaces(ctx).catch((error: Error) => (ctx.log(`benchmark client sweep: ${error.message}`), 0));
    if (swept) ctx.log(`removed ${swept} benchmark client namespace(s) of finished runs`);
    // A peer or engine a killed worker left on loopback (process VMs) after its run had finished.
    const stopped = await sweepLoopbackSlots(ctx).catch((error: Error) => (ctx.log(`benchmark loopback sweep: ${error.message}`), 0));
    if (stopped) ctx.log(`stopped ${stopped} benchmark server(s) on loopback of finished runs`);
    const types = Object.keys(OPERATION_QUEUES) as OperationRow['type'][];
    const unfinished = await ctx.repo.listUnfinishedOperations(types);
    const now = Date.now();
    const orphans = unfinished.filter(
      (op) => op.instanceId && !this.inFlight.has(op.id) && (op.status === 'running' || now - op.createdAt.getTime() > PENDING_GRACE_MS),
    );
    for (const operation of orphans) this.start(operation, 'reconciled');
    return orphans.length;
  }

  /**
   * Starts the instance's next operation in turn when it waits (pending): what an operation
   * that has just finished hands over (jobs/instance-turn.ts). One already being started here
   * is left alone; one another worker holds ends `busy` at once.
   */
  async startNext(instanceId: string): Promise<void> {
    const next = await this.ctx.repo.operations().firstInTurn(instanceId);
    if (next?.status === 'pending' && !this.inFlight.has(next.id)) this.start(next, 'handed over to');
  }

  private start(operation: OperationRow, how: string): void {
    const { ctx } = this;
    this.inFlight.add(operation.id);
    const key = OPERATION_QUEUES[operation.type]!;
    // Bounded like the queues' jobs: however many there are, they share the slots.
    void this.inSlot(() => handle(ctx, key, payloadOf(operation)))
      .then((outcome) => {
        if (outcome !== 'busy') ctx.log(`${how} ${operation.type} operation ${operation.id}: ${outcome}`);
      })
      .catch((error: Error) => ctx.log(`${how} ${operation.type} operation ${operation.id} failed: ${error.message}`))
      .finally(() => this.inFlight.delete(operation.id));
  }
}
