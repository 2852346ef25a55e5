// Starts an operation: writes the operation row, points the instance at it (and moves its
// status to the one its kind holds while it runs), and enqueues the worker's job on its kind's
// queue, all in one transaction. A create makes the instance in the same transaction. The API
// starts operations for its callers; the worker starts the ones the control plane owes by
// itself (a rotated password's window closing, a failover).
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { inTransaction, type Db } from './client.js';
import { enqueue } from './jobs.js';
import type { InstanceRow, OperationRow } from './provisioning.js';
import { InstancesRepository } from './repositories/instances.repository.js';
import { OperationsRepository } from './repositories/operations.repository.js';
import { queueOf, statusOwner, type JobOf, type OperationType } from './operation-kinds.js';

export interface StartOperation<T extends OperationType> {
  /** The instance it works on, or (a create) the function that makes it in the transaction. */
  instance: InstanceRow | ((db: Db) => Promise<InstanceRow>);
  type: T;
  /** Who asked; null when the control plane starts it by itself. */
  userId: string | null;
  params?: Record<string, unknown>;
  job?: Omit<JobOf<T>, 'instance_id' | 'operation_id'>;
  /** Row changes made in the same transaction before the operation is written. */
  before?: (db: Db) => Promise<void>;
  /** Rows that name the operation (a report's), written before the job is enqueued. */
  after?: (db: Db, operation: OperationRow, instance: InstanceRow) => Promise<void>;
}

export function startOperation<T extends OperationType>(pool: pg.Pool, boss: PgBoss, request: StartOperation<T>): Promise<{ instance: InstanceRow; operation: OperationRow }> {
  return inTransaction(pool, async (db, executor) => {
    if (request.before) await request.before(db);
    const target = typeof request.instance === 'function' ? await request.instance(db) : request.instance;
    const operation = await new OperationsRepository(db).insert({
      projectId: target.projectId,
      instanceId: target.id,
      type: request.type,
      params: request.params ?? {},
      createdBy: request.userId,
    });
    const status = statusOwner(request.type)?.during;
    const instance = await new InstancesRepository(db).update(target.projectId, target.id, {
      currentOperationId: operation.id,
      ...(status ? { status } : {}),
    });
    if (request.after) await request.after(db, operation, instance!);
    const payload = { ...(request.job ?? {}), instance_id: target.id, operation_id: operation.id } as JobOf<T>;
    await enqueue(boss, queueOf(request.type), payload, executor);
    return { instance: instance!, operation };
  });
}
