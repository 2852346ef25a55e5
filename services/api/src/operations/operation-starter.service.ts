// Starts an operation on an instance: writes the operation row, points the instance at it (and
// moves its status), and enqueues the worker's job, all in one transaction.
import { Inject, Injectable } from '@nestjs/common';
import PgBoss from 'pg-boss';
import {
  type Database,
  enqueue,
  inTransaction,
  InstancesRepository,
  type InstanceRow,
  type JobPayloads,
  OperationsRepository,
  type OperationRow,
  type QueueKey,
  type Db,
  type InstanceStatus,
} from '@basalt/db';
import { DATABASE } from '../database/database.module.js';

export interface StartOperation<K extends QueueKey> {
  instance: InstanceRow;
  type: OperationRow['type'];
  queue: K;
  userId: string;
  /** New instance status, e.g. `modifying`; unchanged when absent. */
  status?: InstanceStatus;
  params?: Record<string, unknown>;
  job?: Omit<JobPayloads[K], 'instance_id' | 'operation_id'>;
  /** Row changes made in the same transaction before the job is enqueued. */
  before?: (db: Db) => Promise<void>;
}

@Injectable()
export class OperationStarter {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly boss: PgBoss,
  ) {}

  async start<K extends QueueKey>(request: StartOperation<K>): Promise<{ instance: InstanceRow; operation: OperationRow }> {
    return inTransaction(this.database.pool, async (db, executor) => {
      if (request.before) await request.before(db);
      const operation = await new OperationsRepository(db).insert({
        projectId: request.instance.projectId,
        instanceId: request.instance.id,
        type: request.type,
        params: request.params ?? {},
        createdBy: request.userId,
      });
      const instance = await new InstancesRepository(db).update(request.instance.projectId, request.instance.id, {
        currentOperationId: operation.id,
        ...(request.status ? { status: request.status } : {}),
      });
      const payload = { ...(request.job ?? {}), instance_id: request.instance.id, operation_id: operation.id } as JobPayloads[K];
      await enqueue(this.boss, request.queue, payload, executor);
      return { instance: instance!, operation };
    });
  }
}
