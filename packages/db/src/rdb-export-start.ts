// Starts an RDB export of a backup: the rdb_exports row (pending) and its `rdb_export`
// operation with the job, in one transaction. Unlike startOperation it leaves the instance row
// alone: an export reads only the object store, so it is no instance's current operation (and
// a deleted instance, whose backups are kept, can be exported without being touched).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { inTransaction } from './client.js';
import { enqueue } from './jobs.js';
import type { OperationRow } from './provisioning.js';
import type { BackupRow } from './repositories/backups.repository.js';
import { OperationsRepository } from './repositories/operations.repository.js';
import { RdbFilesRepository, type RdbExportRow } from './repositories/rdb-files.repository.js';

/** How long an export can be downloaded. */
export const RDB_EXPORT_TTL_MS = 24 * 3_600_000;

export function startRdbExport(pool: pg.Pool, boss: PgBoss, request: { backup: BackupRow; userId: string | null }): Promise<{ export: RdbExportRow; operation: OperationRow }> {
  const { backup } = request;
  return inTransaction(pool, async (db, executor) => {
    const files = new RdbFilesRepository(db);
    const id = randomUUID();
    const now = new Date();
    await files.insertExport({
      id,
      projectId: backup.projectId,
      instanceId: backup.instanceId,
      backupId: backup.id,
      createdBy: request.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RDB_EXPORT_TTL_MS),
    });
    const operation = await new OperationsRepository(db).insert({
      projectId: backup.projectId,
      instanceId: backup.instanceId,
      type: 'rdb_export',
      params: { export_id: id, backup_id: backup.id },
      createdBy: request.userId,
    });
    await files.linkExportOperation(id, operation.id);
    await enqueue(boss, 'rdbExport', { export_id: id, instance_id: backup.instanceId, operation_id: operation.id }, executor);
    return { export: (await files.getExportForJob(id))!, operation };
  });
}
