// The operation catalogue: every kind of operation named once, with what the API's starter and
// the worker's jobs need to know of it.
// - its queue (jobs.ts QUEUES; the payload type follows from it: JobPayloads[queue]);
// - its steps, as constants: the worker's OperationRun accepts only these names, and the
//   console shows them in this order. `optional` steps appear only when the run needs them
//   (a standard instance's floating addresses); `variants` are modes with steps of their own;
// - the status it owns: the one its starter moves the instance to while it is asked for and
//   runs, and the ones it leaves on success and on failure. It writes them (and health and
//   fault with them) only while the instance is still in its `during` status: a later
//   operation that took the status since owns it (a restart finishing under a modify asked
//   for meanwhile leaves `modifying`). A kind without one owns no status and never writes it
//   (users, allowlist, benchmarks, failovers): a failed modify's `error` outlives the next
//   password-expiry apply;
// - its turn: operations on one instance run one at a time in the order they were asked
//   (services/worker/src/jobs/instance-turn.ts), unless `inTurn` is false;
// - which steps a retry resumes past (`resumable`): a worker that died mid-operation leaves
//   the steps it finished recorded on the operation (services/worker/src/operation.ts), and
//   the retry skips those it meets before the first step that has to run (returning what they
//   returned then); from that step on every step runs again. A step is resumable only when its
//   effect outlives the worker and nothing in the same operation undoes it (VMs made, an
//   engine deployed); one that checks the present (a health check, a failover's look at the
//   primary), or acts on roles a switchover may have changed since, always runs again. Every
//   step is idempotent either way: running one again converges to the same state.
import type { InstanceStatus, OperationRow } from './provisioning.js';
import type { JobPayloads, QueueKey } from './jobs.js';

export type OperationType = OperationRow['type'];

export interface StatusOwner {
  /** Set by the starter when the operation is asked for; the instance holds it while it runs. */
  during: InstanceStatus;
  succeeded: InstanceStatus;
  /** Null: the status stays `during` (a failed delete stays `deleting`; DELETE again retries it). */
  failed: InstanceStatus | null;
}

interface StepList {
  steps: readonly string[];
  optional?: readonly string[];
  /** Steps a retry skips when an earlier attempt recorded them finished (see the top of the file). */
  resumable?: readonly string[];
  /** False: does not wait for the operations asked before it (default true). */
  inTurn?: boolean;
}

export interface OperationKind extends StepList {
  queue: QueueKey;
  status?: StatusOwner;
  variants?: Readonly<Record<string, StepList>>;
}

/** A deploy of a standard instance places its floating addresses. */
const DEPLOY_OPTIONAL = ['floating_addresses'] as const;
/**
 * The zero-loss switchover (services/worker/src/failover/failover.ts switchOver): a failover
 * of its own, and the middle of a standard instance's rolling restart or resize.
 */
export const SWITCHOVER_STEPS = ['choose_replica', 'stop_writes', 'catch_up', 'promote', 'move_endpoint', 'ansible_deploy'] as const;
/** A rolling deploy of a standard instance: its nodes one by one, a switchover in the middle. */
const ROLLING_OPTIONAL = [...DEPLOY_OPTIONAL, ...SWITCHOVER_STEPS] as const;

export const OPERATION_KINDS = {
  create: {
    queue: 'provision',
    steps: ['allocate_addresses', 'terraform_init', 'terraform_apply', 'ansible_deploy', 'health_check'],
    // A restore (from a backup, a point in time, an RDB file) fills the new instance's data.
    optional: [...DEPLOY_OPTIONAL, 'restore_data'],
    // A restore's fetched files are removed when its step ends, so restore_data runs again.
    resumable: ['allocate_addresses', 'terraform_apply', 'ansible_deploy'],
    status: { during: 'creating', succeeded: 'running', failed: 'create_failed' },
  },
  modify: {
    queue: 'modify',
    steps: ['terraform_init', 'terraform_apply', 'ansible_deploy', 'health_check'],
    optional: ROLLING_OPTIONAL,
    // A rolling deploy records each node's deploy by the node's name; the switchover's steps
    // (which read the live roles) run again, and everything after them.
    resumable: ['terraform_apply', 'ansible_deploy'],
    status: { during: 'modifying', succeeded: 'running', failed: 'error' },
  },
  restart: {
    queue: 'restart',
    steps: ['ansible_restart', 'health_check'],
    optional: ROLLING_OPTIONAL,
    resumable: ['ansible_restart'],
    status: { during: 'restarting', succeeded: 'running', failed: 'error' },
  },
  delete: {
    queue: 'delete',
    steps: ['terraform_init', 'terraform_destroy', 'cleanup'],
    // A live instance's last base, before its VMs go (backup/final-backup.ts).
    optional: ['final_backup'],
    // A final backup already taken is found by its row (backup/final-backup.ts), not skipped.
    resumable: ['terraform_destroy'],
    status: { during: 'deleting', succeeded: 'deleted', failed: null },
  },
  apply_users: { queue: 'applyUsers', steps: ['ansible_apply', 'health_check'], resumable: ['ansible_apply'] },
  apply_allowlist: { queue: 'applyAllowlist', steps: ['ansible_apply', 'health_check'], resumable: ['ansible_apply'] },
  // A retry measures again from the start: its engine and clients died with the worker, and the
  // runs it stored are its own (jobs/benchmark.ts puts back what it found).
  benchmark: { queue: 'benchmark', steps: ['prepare', 'run_scenarios'] },
  // An automatic failover or rebuild must not queue behind the work it rescues; a switchover
  // asked for through the API takes its turn like any other change (FailoverJob.mode). No step
  // is resumable: each acts on the engines as they are now (a retry finds the promoted primary
  // answering and stops at check_primary).
  failover: {
    queue: 'failover',
    inTurn: false,
    steps: ['check_primary', 'choose_replica', 'fence_primary', 'promote', 'move_endpoint', 'terraform_init', 'terraform_apply', 'ansible_deploy', 'replica_sync'],
    optional: DEPLOY_OPTIONAL,
    variants: {
      switchover: { inTurn: true, steps: SWITCHOVER_STEPS, optional: DEPLOY_OPTIONAL },
      rebuild: { inTurn: false, steps: ['terraform_init', 'terraform_apply', 'ansible_deploy', 'replica_sync'], optional: DEPLOY_OPTIONAL },
    },
  },
  // Takes its turn: a base is read from the engine a resize or restart is replacing. A retry
  // stores only what the object store lacks (backup/take-base.ts).
  backup: { queue: 'backup', steps: ['seal_base', 'store_segments', 'write_manifest'] },
  // An RDB file of a backup: it reads only the object store, so it waits for no operation of
  // the instance (nor for a live one: a deleted instance's backups are exported too).
  rdb_export: { queue: 'rdbExport', inTurn: false, steps: ['fetch_backup', 'write_rdb', 'store_rdb'] },
  // A per-type report only drives its temporary instance's own operations, which take their
  // turns and resume on their own; a stored report stays stored (jobs/type-report.ts).
  benchmark_report: { queue: 'typeReport', inTurn: false, steps: ['create_instance', 'run_suites', 'render_report', 'delete_instance'] },
} as const satisfies Record<OperationType, OperationKind>;

type Kinds = typeof OPERATION_KINDS;
type ListOf<T> = T extends { steps: readonly (infer S)[] } ? S | (T extends { optional: readonly (infer O)[] } ? O : never) : never;
type VariantsOf<K extends OperationType> = Kinds[K] extends { variants: infer V } ? V : Record<never, never>;

/** The step names an operation of kind K may run, variants included. */
export type StepName<K extends OperationType> = (ListOf<Kinds[K]> | ListOf<VariantsOf<K>[keyof VariantsOf<K>]>) & string;
/** The queue an operation of kind K is enqueued on, and the job it carries. */
export type QueueOf<K extends OperationType> = Kinds[K]['queue'];
export type JobOf<K extends OperationType> = JobPayloads[QueueOf<K>];

const kind = (type: OperationType): OperationKind => OPERATION_KINDS[type];

/** What one run of a kind may do: its steps in order, those shown only once run, its turn. */
export interface RunSteps<S extends string> {
  kind: OperationType;
  steps: readonly S[];
  optional: readonly S[];
  /** The steps a retry skips when recorded finished (only up to the first step that runs). */
  resumable: readonly S[];
  inTurn: boolean;
}

/** The steps (and turn) of one run of `type`, in `variant` when the kind has one by that name. */
export function stepsOf<K extends OperationType>(type: K, variant?: string): RunSteps<StepName<K>> {
  const of = kind(type);
  const list = (variant ? of.variants?.[variant] : undefined) ?? of;
  const optional = (list.optional ?? []).filter((name) => !list.steps.includes(name));
  const resumable = list.resumable ?? of.resumable ?? [];
  return { kind: type, steps: list.steps, optional, resumable, inTurn: list.inTurn ?? of.inTurn ?? true } as unknown as RunSteps<StepName<K>>;
}

export function queueOf<K extends OperationType>(type: K): QueueOf<K> {
  return OPERATION_KINDS[type].queue as QueueOf<K>;
}

export function statusOwner(type: OperationType): StatusOwner | undefined {
  return kind(type).status;
}

/** Kinds none of whose runs waits its turn on the instance (the turn query leaves them out). */
export const OUT_OF_TURN: OperationType[] = (Object.keys(OPERATION_KINDS) as OperationType[]).filter(
  (type) => stepsOf(type).inTurn === false && Object.values(kind(type).variants ?? {}).every((variant) => variant.inTurn === false),
);

/** The operation type each queue's jobs stand for (a queue carries one kind). */
export const QUEUE_KINDS = Object.fromEntries((Object.keys(OPERATION_KINDS) as OperationType[]).map((type) => [queueOf(type), type])) as Record<QueueKey, OperationType>;

/** The instance fields that follow its status: written together with it, by its owner only. */
export const STATUS_FIELDS = ['status', 'health', 'healthReason', 'fault'] as const;
