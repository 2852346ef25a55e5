// What an operation of each kind may do to its instance, one source for the API's starter and
// the worker's jobs:
// - the status it owns: the one its starter moves the instance to while it is asked for and
//   runs, and the ones it leaves on success and on failure. It writes them (and health and
//   fault with them) only while the instance is still in its `during` status: a later
//   operation that took the status since owns it (a restart finishing under a modify asked
//   for meanwhile leaves `modifying`). A kind not named here owns no status and never writes
//   it (users, allowlist, benchmarks, failovers): a failed modify's `error` outlives the next
//   password-expiry apply;
// - its turn: operations on one instance run one at a time in the order they were asked
//   (services/worker/src/jobs/instance-turn.ts), except the kinds in OUT_OF_TURN.
import type { InstanceStatus, OperationRow } from './provisioning.js';

export type OperationType = OperationRow['type'];

export interface StatusOwner {
  /** Set by the starter when the operation is asked for; the instance holds it while it runs. */
  during: InstanceStatus;
  succeeded: InstanceStatus;
  /** Null: the status stays `during` (a failed delete stays `deleting`; DELETE again retries it). */
  failed: InstanceStatus | null;
}

export const STATUS_OWNERS: Partial<Record<OperationType, StatusOwner>> = {
  create: { during: 'creating', succeeded: 'running', failed: 'create_failed' },
  modify: { during: 'modifying', succeeded: 'running', failed: 'error' },
  restart: { during: 'restarting', succeeded: 'running', failed: 'error' },
  delete: { during: 'deleting', succeeded: 'deleted', failed: null },
};

/**
 * Kinds that do not wait for their turn on the instance: a per-type report only drives its
 * temporary instance's own operations (which take their turns), and an automatic failover or
 * rebuild must not queue behind the work it rescues. A switchover asked for through the API
 * takes its turn like any other change (FailoverJob.mode says which it is).
 */
export const OUT_OF_TURN: OperationType[] = ['benchmark_report'];

/** The instance fields that follow its status: written together with it, by its owner only. */
export const STATUS_FIELDS = ['status', 'health', 'healthReason', 'fault'] as const;
