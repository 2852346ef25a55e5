// The job contract between the API (producer) and the worker (consumer). Queue names and payloads
// are stable: add fields, never rename or remove them.
import type PgBoss from 'pg-boss';
import type { SqlExecutor } from './client.js';

export const QUEUES = {
  provision: 'instance-provision',
  modify: 'instance-modify',
  restart: 'instance-restart',
  delete: 'instance-delete',
  applyUsers: 'instance-apply-users',
  applyAllowlist: 'instance-apply-allowlist',
  benchmark: 'instance-benchmark',
  failover: 'instance-failover',
  typeReport: 'instance-type-report',
  backup: 'instance-backup',
  rdbExport: 'instance-rdb-export',
} as const;

export type QueueKey = keyof typeof QUEUES;
export type QueueName = (typeof QUEUES)[QueueKey];

/** Every job names the instance and the operation whose steps and status the worker reports. */
export interface InstanceJobPayload {
  instance_id: string;
  operation_id: string;
}

/**
 * What a new instance's data comes from (issue 44): a backup (restored to its consistent
 * point), or a source instance's archive to a point in time (unix ms, a whole second). The API
 * checked that it exists and lies in the source's restorable window; the worker fails the
 * create with the reason when what it needs cannot be read or verified. An RDB file uploaded
 * to the project (rdb_imports) is read into the new instance's log by `basalt-rdb import`.
 */
export type RestoreSource = { backup_id: string } | { source_instance_id: string; point_in_time_ms: number } | { rdb_import_id: string };

export interface ProvisionJob extends InstanceJobPayload {
  restore?: RestoreSource;
}
/**
 * The sizing and parameters an instance is to have. The row keeps its current ones until a
 * modify succeeds, so a failed resize leaves the type the VMs really have, and a retry (or
 * a modify back to the old type) converges on what it names.
 */
export interface ModifyTarget {
  instance_type: string;
  disk_gib: number;
  parameters: Record<string, unknown>;
}

/** What changes (for people: the operation's events) and the state it leads to. */
export interface ModifyJob extends InstanceJobPayload {
  changes: {
    instance_type?: { from: string; to: string };
    disk_gib?: { from: number; to: number };
    parameters?: Record<string, string>;
  };
  /** Absent in jobs queued before targets existed, whose row already held the new state. */
  target?: ModifyTarget;
}
export interface RestartJob extends InstanceJobPayload {}
export interface DeleteJob extends InstanceJobPayload {}
export interface ApplyUsersJob extends InstanceJobPayload {}
export interface ApplyAllowlistJob extends InstanceJobPayload {}
export interface BenchmarkJob extends InstanceJobPayload {
  benchmark_id: string;
}

/**
 * A per-type benchmark report (issue 13): the job provisions the temporary instance named
 * here (the platform's project), runs the report's suites on it, stores the report and
 * deletes the instance, however the run ends.
 */
export interface TypeReportJob extends InstanceJobPayload {
  report_id: string;
}

/**
 * A `standard` instance's primary changes (issue 15). `automatic`: the failover monitor found
 * `suspected_primary` unreachable; the primary is fenced and the most up-to-date replica
 * promoted. `switchover`: asked for through the API; the primary stops taking writes, a
 * replica catches up with all of them and takes over, and the old primary becomes a replica.
 * `rebuild`: the monitor tries again to rebuild a fenced node whose rebuild failed.
 */
export interface FailoverJob extends InstanceJobPayload {
  mode: 'automatic' | 'switchover' | 'rebuild';
  suspected_primary?: string;
}

/**
 * A base backup (issue 44): the instance's log sealed at one point, every live segment of it
 * stored (only those the archive or an earlier base has not), and a manifest naming them.
 */
export interface BackupJob extends InstanceJobPayload {
  backup_id: string;
}

/**
 * An RDB file made from a succeeded backup (issue 44): the backup fetched to its end, written
 * as RDB by `basalt-rdb export`, stored sealed with the instance's data key.
 */
export interface RdbExportJob extends InstanceJobPayload {
  export_id: string;
}

export interface JobPayloads {
  provision: ProvisionJob;
  modify: ModifyJob;
  restart: RestartJob;
  delete: DeleteJob;
  applyUsers: ApplyUsersJob;
  applyAllowlist: ApplyAllowlistJob;
  benchmark: BenchmarkJob;
  failover: FailoverJob;
  typeReport: TypeReportJob;
  backup: BackupJob;
  rdbExport: RdbExportJob;
}

/**
 * Creates every queue (idempotent); call once after `boss.start()`. A job may run Terraform and
 * Ansible for a long while, so it expires after an hour rather than pg-boss's 15 minutes.
 */
export async function createQueues(boss: PgBoss): Promise<void> {
  for (const name of Object.values(QUEUES)) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, retryLimit: 2, retryDelay: 5, expireInSeconds: 3600 });
  }
}

/** Enqueues a job; pass `executor` to enqueue inside an open transaction. */
export async function enqueue<K extends QueueKey>(
  boss: PgBoss,
  key: K,
  payload: JobPayloads[K],
  executor?: SqlExecutor,
): Promise<string | null> {
  const options: PgBoss.SendOptions = { singletonKey: payload.operation_id };
  if (executor) options.db = executor;
  return boss.send(QUEUES[key], payload as unknown as object, options);
}
