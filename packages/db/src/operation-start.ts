// Starts an operation on an instance: writes the operation row, points the instance at it (and
// moves its status), and enqueues the worker's job, all in one transaction. The API starts
// operations for its callers; the worker starts the ones the control plane owes by itself
// (a rotated password's window closing).
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { inTransaction, type Db } from './client.js';
import { enqueue, type JobPayloads, type QueueKey } from './jobs.js';
import type { InstanceRow, OperationRow } from './provisioning.js';
import { InstancesRepository } from './repositories/instances.repository.js';
import { OperationsRepository } from './repositories/operations.repository.js';
import { STATUS_OWNERS } from './operation-kinds.js';

export interface StartOperation<K extends QueueKey> {
  instance: InstanceRow;
  type: OperationRow['type'];
  queue: K;
  /** Who asked; null when the control plane starts it by itself. */
  userId: string | null;
  params?: Record<string, unknown>;
  job?: Omit<JobPayloads[K], 'instance_id' | 'operation_id'>;
  /** Row changes made in the same transaction before the job is enqueued. */
  before?: (db: Db) => Promise<void>;
}

export function startOperation<K extends QueueKey>(pool: pg.Pool, boss: PgBoss, request: StartOperation<K>): Promise<{ instance: InstanceRow; operation: OperationRow }> {
  return inTransaction(pool, async (db, executor) => {
    if (request.before) await request.before(db);
    const operation = await new OperationsRepository(db).insert({
      projectId: request.instance.projectId,
      instanceId: request.instance.id,
      type: request.type,
      params: request.params ?? {},
      createdBy: request.userId,
    });
    // The status the kind owns while it is asked for and runs (operation-kinds.ts), if any.
    const status = STATUS_OWNERS[request.type]?.during;
    const instance = await new InstancesRepository(db).update(request.instance.projectId, request.instance.id, {
      currentOperationId: operation.id,
      ...(status ? { status } : {}),
    });
    const payload = { ...(request.job ?? {}), instance_id: request.instance.id, operation_id: operation.id } as JobPayloads[K];
    await enqueue(boss, request.queue, payload, executor);
    return { instance: instance!, operation };
  });
}
