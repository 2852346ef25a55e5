// What a create's `restore_from` names, checked before anything is made: a succeeded backup of
// this project, an instance of this project at a point inside its restore window, or an RDB file
// uploaded to this project and not expired; each must fit the new instance's disk. The worker restores what the job names and fails the create
// with the reason if, by then, it cannot read or verify it (a backup deleted meanwhile).
import { gapAt, gapRefusal, windowCovers, type BackupsRepository, type InstancesRepository, type RdbFilesRepository, type RestoreSource, type schema } from '@basalt/db';
import { parsePointInTime } from '@basalt/api-client/rules';
import { Conflict, Invalid, NotFound } from '../common/errors.js';
import type { RestoreSourceDto } from '../instances/instance.dto.js';
import { isoSecond } from './backup.dto.js';

export interface Restore {
  /** What the create's job carries to the worker. */
  job: RestoreSource;
  /** What the instance shows (restored_from) and the operation's params record. */
  restoredFrom: schema.RestoredFrom;
}

const GIB = 1024 ** 3;

export async function resolveRestore(
  repositories: { backups: BackupsRepository; instances: InstancesRepository; rdbFiles: RdbFilesRepository },
  projectId: string,
  given: RestoreSourceDto,
  diskGib: number,
): Promise<Restore> {
  const { backup_id: backupId, source_instance_id: sourceId, point_in_time: point, rdb_import_id: importId } = given;
  if (importId !== undefined && backupId === undefined && sourceId === undefined && point === undefined) {
    const upload = await repositories.rdbFiles.getImport(projectId, importId);
    if (!upload) throw new NotFound('RDB import');
    if (upload.expiresAt <= new Date()) throw new Conflict(`RDB import ${upload.id} expired at ${isoSecond(upload.expiresAt)}; upload the file again`, 'rdb_import_expired');
    requireRoom(upload.sizeBytes, diskGib);
    return { job: { rdb_import_id: upload.id }, restoredFrom: { rdb_import_id: upload.id } };
  }
  if (importId !== undefined) throw new Invalid('restore_from.rdb_import_id is given alone', [{ field: 'restore_from', problems: ['rdb_import_id with another field'] }]);
  if (backupId !== undefined && sourceId === undefined && point === undefined) {
    const backup = await repositories.backups.get(projectId, backupId);
    if (!backup) throw new NotFound('Backup');
    if (backup.status !== 'succeeded') throw new Conflict(`Backup ${backup.id} is ${backup.status}; only a succeeded backup can be restored`, 'backup_not_ready');
    requireRoom(backup.sizeBytes, diskGib);
    return { job: { backup_id: backup.id }, restoredFrom: { backup_id: backup.id } };
  }
  if (backupId === undefined && sourceId !== undefined && point !== undefined) {
    const at = parsePointInTime(point);
    if (!(at instanceof Date)) throw new Invalid(`restore_from.point_in_time ${at.error}`, [{ field: 'restore_from.point_in_time', problems: [at.error] }]);
    const source = await repositories.instances.get(projectId, sourceId);
    if (!source) throw new NotFound('Source instance');
    const window = await repositories.backups.restoreWindow(source.id);
    const gap = gapAt(window, at);
    if (gap) {
      throw new Conflict(`point_in_time ${gapRefusal(gap, at)}`, 'point_in_gap', { from: isoSecond(gap.from), to: isoSecond(gap.to) });
    }
    if (!windowCovers(window, at)) {
      const range = window.earliest ? `from ${isoSecond(window.earliest)} to ${isoSecond(window.latest)}` : 'nothing yet (it has no succeeded backup)';
      throw new Conflict(`point_in_time ${isoSecond(at)} is outside the source instance's restore window: ${range}`, 'point_outside_window', {
        earliest: isoSecond(window.earliest),
        latest: isoSecond(window.latest),
      });
    }
    // The restore starts from the newest base before the point; the log after it is replayed.
    const [base] = await repositories.backups.basesBefore(source.id, at);
    if (base) requireRoom(base.sizeBytes, diskGib);
    return {
      job: { source_instance_id: source.id, point_in_time_ms: at.getTime() },
      restoredFrom: { source_instance_id: source.id, point_in_time: isoSecond(at)! },
    };
  }
  throw new Invalid('restore_from must be one of {backup_id}, {source_instance_id, point_in_time} or {rdb_import_id}', [
    { field: 'restore_from', problems: ['exactly one of: backup_id, source_instance_id with point_in_time, or rdb_import_id'] },
  ]);
}

function requireRoom(sizeBytes: number, diskGib: number): void {
  if (sizeBytes > diskGib * GIB) {
    throw new Conflict(
      `The restored data takes ${sizeBytes} bytes, more than a disk of ${diskGib} GiB holds: choose a larger disk_gib (or instance type)`,
      'too_small',
      [{ field: 'disk_gib', problems: ['too small for the restored data'] }],
    );
  }
}
