// Starts an operation on an instance for an API caller (@basalt/db's startOperation: the
// operation row, the instance pointed at it, and the worker's job, in one transaction).
import { Inject, Injectable } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { type Database, type InstanceRow, type OperationRow, type QueueKey, startOperation, type StartOperation as StartRequest } from '@basalt/db';
import { DATABASE } from '../database/database.module.js';

export type StartOperation<K extends QueueKey> = StartRequest<K> & { userId: string };

@Injectable()
export class OperationStarter {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly boss: PgBoss,
  ) {}

  start<K extends QueueKey>(request: StartOperation<K>): Promise<{ instance: InstanceRow; operation: OperationRow }> {
    return startOperation(this.database.pool, this.boss, request);
  }
}
