// Which function handles which queue, and which handles an operation of each type when
// a reconciling worker finishes what a dead worker left behind. The map is total: its type
// names every queue of @basalt/db's QUEUES, and loading this module (worker startup) fails
// when a queue has no handler, so no job is ever queued where no worker takes it.
import { OPERATION_KINDS, QUEUES, queueOf, type InstanceJobPayload, type JobPayloads, type OperationRow, type QueueKey } from '@basalt/db';
import type { JobContext } from './context.js';
import type { Outcome } from './jobs/run-operation.js';
import { provision } from './jobs/provision.js';
import { modify } from './jobs/modify.js';
import { restart } from './jobs/restart.js';
import { deleteInstance } from './jobs/delete.js';
import { applyConfig } from './jobs/apply-config.js';
import { benchmark } from './jobs/benchmark.js';
import { failover } from './failover/failover.js';
import { typeReport } from './jobs/type-report.js';
import { backup } from './jobs/backup.js';
import { rdbExportJob } from './jobs/rdb-export.js';

type Handler<K extends QueueKey> = (ctx: JobContext, payload: JobPayloads[K]) => Promise<Outcome>;

export const HANDLERS: { [K in QueueKey]: Handler<K> } = {
  provision,
  modify,
  restart,
  delete: deleteInstance,
  applyUsers: (ctx, payload) => applyConfig(ctx, payload, 'users'),
  applyAllowlist: (ctx, payload) => applyConfig(ctx, payload, 'allowlist'),
  benchmark,
  failover,
  typeReport: (ctx, payload) => typeReport(ctx, payload, handle),
  backup,
  rdbExport: rdbExportJob,
};

export type HandledQueue = keyof typeof HANDLERS;

/** Throws, naming them, when queues have no handler (a map built by hand, or cast past its type). */
export function requireHandlerForEveryQueue(handlers: Partial<Record<QueueKey, unknown>> = HANDLERS): void {
  const missing = (Object.keys(QUEUES) as QueueKey[]).filter((key) => typeof handlers[key] !== 'function');
  if (missing.length > 0) {
    throw new Error(`no handler for queue(s) ${missing.map((key) => `${key} (${QUEUES[key]})`).join(', ')}: every queue the API enqueues must have one in services/worker/src/handlers.ts`);
  }
}

requireHandlerForEveryQueue();

/** The queue each operation type's jobs go to: the catalogue's (@basalt/db operation-kinds.ts). */
export const OPERATION_QUEUES = Object.fromEntries(
  (Object.keys(OPERATION_KINDS) as OperationRow['type'][]).map((type) => [type, queueOf(type)]),
) as Record<OperationRow['type'], HandledQueue>;

export function queueName(key: HandledQueue): string {
  return QUEUES[key];
}

/** The job payload an operation row stands for (what the API enqueued with it). */
export function payloadOf(operation: OperationRow): InstanceJobPayload & Record<string, unknown> {
  const params = (operation.params ?? {}) as Record<string, unknown>;
  // The API keeps a modify's job ({changes, target}) as the operation's params; operations
  // queued before targets existed kept the changes alone.
  const job = operation.type === 'modify' && !('target' in params) ? { changes: params } : params;
  return { ...job, instance_id: operation.instanceId!, operation_id: operation.id };
}

export function handle(ctx: JobContext, key: HandledQueue, payload: InstanceJobPayload): Promise<Outcome> {
  return (HANDLERS[key] as Handler<HandledQueue>)(ctx, payload as JobPayloads[HandledQueue]);
}
