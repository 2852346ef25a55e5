// Starts an operation on an instance for an API caller (@basalt/db's startOperation: the
// operation row, the instance pointed at it, and the worker's job, in one transaction).
import { Inject, Injectable } from '@nestjs/common';
import PgBoss from 'pg-boss';
import { type Database, type InstanceRow, type OperationRow, type OperationType, startBackup, type StartBackup, startOperation, type StartOperation as StartRequest } from '@basalt/db';
import { DATABASE } from '../database/database.module.js';

export type StartOperation<T extends OperationType> = StartRequest<T> & { userId: string };

@Injectable()
export class OperationStarter {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly boss: PgBoss,
  ) {}

  start<T extends OperationType>(request: StartOperation<T>): Promise<{ instance: InstanceRow; operation: OperationRow }> {
    return startOperation(this.database.pool, this.boss, request);
  }

  /** A base backup: its row and its operation (@basalt/db's startBackup, shared with the worker's scheduler). */
  startBackup(request: StartBackup & { userId: string }): Promise<{ backupId: string; operation: OperationRow }> {
    return startBackup(this.database.pool, this.boss, request);
  }
}
