// Backups of an instance and the window it can be restored to. The API asks for a backup (its
// row and a `backup` operation) and for one to go; the worker's backup job and archiver alone
// write what they found (its range, size, status after pending, the archive's progress).
import { Injectable } from '@nestjs/common';
import { archiveLagSeconds, BackupsRepository } from '@basalt/db';
import { Conflict, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { InstanceService } from '../instances/instance.service.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { type BackupAcceptedDto, type BackupDto, isoSecond, type RestoreWindowDto, toBackupDto } from './backup.dto.js';

/**
 * A manual backup is asked for on a `running` instance, or on one in `error` (a resize or
 * restart that failed usually leaves the engine serving, and a backup before trying again is
 * what one wants then). Not while `modifying` or `restarting`: the backup would take its turn
 * after that operation and read its base from an engine being replaced, a point the person
 * could not choose; ask again once it has finished. Nothing to read while `creating` or after a
 * failed create, and a delete takes its own final backup.
 */
const BACKUP_STATUSES_ALLOWED = new Set(['running', 'error']);

@Injectable()
export class BackupService {
  constructor(
    private readonly access: ProjectAccess,
    private readonly instances: InstanceService,
    private readonly backups: BackupsRepository,
    private readonly starter: OperationStarter,
  ) {}

  /** Every backup of the instance, newest first; a deleted instance keeps its row and its backups. */
  async list(auth: AuthContext, projectId: string, instanceId: string): Promise<BackupDto[]> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    return (await this.backups.listOf(projectId, instance.id)).map(toBackupDto);
  }

  async get(auth: AuthContext, projectId: string, backupId: string): Promise<BackupDto> {
    await this.access.require(auth, projectId);
    const row = await this.backups.get(projectId, backupId);
    if (!row) throw new NotFound('Backup');
    return toBackupDto(row);
  }

  async create(auth: AuthContext, projectId: string, instanceId: string): Promise<BackupAcceptedDto> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    if (!BACKUP_STATUSES_ALLOWED.has(instance.status)) {
      throw new Conflict(`A backup needs a running instance (or one in error); it is ${instance.status}`, 'invalid_state');
    }
    // A manual backup is kept until someone deletes it.
    const { backupId, operation } = await this.starter.startBackup({ instance, kind: 'manual', userId: auth.user.id, expiresAt: null });
    const row = await this.backups.get(projectId, backupId);
    return { backup: toBackupDto(row!), operation: toOperationDto(operation) };
  }

  /** Asks for a finished backup to go; the worker's backup pass removes its objects, then the row. */
  async delete(auth: AuthContext, projectId: string, backupId: string): Promise<BackupDto> {
    await this.access.require(auth, projectId, 'member');
    const row = await this.backups.get(projectId, backupId);
    if (!row) throw new NotFound('Backup');
    if (row.status === 'deleting') return toBackupDto(row);
    const marked = await this.backups.markDeleting(projectId, backupId);
    if (!marked) throw new Conflict(`The backup is ${row.status}; delete it once it has finished`, 'invalid_state');
    return toBackupDto(marked);
  }

  async restoreWindow(auth: AuthContext, projectId: string, instanceId: string): Promise<RestoreWindowDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const [window, archive, bases] = await Promise.all([
      this.backups.restoreWindow(instance.id),
      this.backups.getArchive(instance.id),
      this.backups.succeededOf(instance.id),
    ]);
    return {
      earliest: isoSecond(window.earliest),
      latest: isoSecond(window.latest),
      timelines: window.timelines.map((span) => ({ timeline: span.timeline, earliest: isoSecond(span.earliest)!, latest: isoSecond(span.latest)! })),
      gaps: window.gaps.map((gap) => ({ from: isoSecond(gap.from)!, to: isoSecond(gap.to)!, ended_timeline: gap.endedTimeline, next_timeline: gap.nextTimeline })),
      archive_lag_seconds: archiveLagSeconds(archive),
      last_backup_at: isoSecond(bases[bases.length - 1]?.finishedAt ?? null),
    };
  }
}
