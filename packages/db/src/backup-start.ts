// Starts a base backup: the backups row (pending) and the `backup` operation with its job, in
// the operation starter's one transaction. The API starts manual ones; the worker's scheduler
// starts the daily automatic ones and the delete job a final one.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { InstanceRow, OperationRow } from './provisioning.js';
import { startOperation } from './operation-start.js';
import { BackupsRepository, type BackupRow } from './repositories/backups.repository.js';

export interface StartBackup {
  instance: InstanceRow;
  kind: BackupRow['kind'];
  /** Who asked; null when the control plane starts it by itself. */
  userId: string | null;
  /** Null: kept until deleted (a manual backup). */
  expiresAt: Date | null;
}

export async function startBackup(pool: pg.Pool, boss: PgBoss, request: StartBackup): Promise<{ backupId: string; operation: OperationRow }> {
  const backupId = randomUUID();
  const { operation } = await startOperation(pool, boss, {
    instance: request.instance,
    type: 'backup',
    userId: request.userId,
    params: { backup_id: backupId, kind: request.kind },
    job: { backup_id: backupId },
    before: async (db) => {
      await new BackupsRepository(db).insert({
        id: backupId,
        projectId: request.instance.projectId,
        instanceId: request.instance.id,
        kind: request.kind,
        status: 'pending',
        expiresAt: request.expiresAt,
        createdBy: request.userId,
      });
    },
    after: (db, started) => new BackupsRepository(db).linkOperation(backupId, started.id),
  });
  return { backupId, operation };
}
