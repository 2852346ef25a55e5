// RDB exports of backups (issue 44). The API asks for one (its row and an `rdb_export`
// operation; the worker makes the file) and streams a made one back, opening it with the
// instance's data key frame by frame as it goes (never the whole file in memory), until it
// expires.
import { Inject, Injectable } from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { Readable } from 'node:stream';
import { BackupsRepository, type Database, decryptSecret, InstancesRepository, RdbFilesRepository, startRdbExport } from '@basalt/db';
import { openStream } from '@basalt/db/sealed-stream';
import { ApiConfig } from '../config.js';
import { DATABASE } from '../database/database.module.js';
import { Conflict, Gone, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { type RdbExportAcceptedDto, type RdbExportDto, toRdbExportDto } from './rdb-file.dto.js';
import { RdbStore } from './rdb-store.js';

export interface RdbDownload {
  fileName: string;
  sizeBytes: number;
  body: Readable;
}

@Injectable()
export class RdbExportService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly boss: PgBoss,
    private readonly config: ApiConfig,
    private readonly access: ProjectAccess,
    private readonly backups: BackupsRepository,
    private readonly instances: InstancesRepository,
    private readonly files: RdbFilesRepository,
    private readonly store: RdbStore,
  ) {}

  async create(auth: AuthContext, projectId: string, backupId: string): Promise<RdbExportAcceptedDto> {
    await this.access.require(auth, projectId, 'member');
    this.store.require();
    const backup = await this.backups.get(projectId, backupId);
    if (!backup) throw new NotFound('Backup');
    if (backup.status !== 'succeeded') throw new Conflict(`Backup ${backup.id} is ${backup.status}; only a succeeded backup can be exported`, 'backup_not_ready');
    const started = await startRdbExport(this.database.pool, this.boss, { backup, userId: auth.user.id });
    return { export: toRdbExportDto(started.export), operation: toOperationDto(started.operation) };
  }

  async get(auth: AuthContext, projectId: string, exportId: string): Promise<RdbExportDto> {
    await this.access.require(auth, projectId);
    const row = await this.files.getExport(projectId, exportId);
    if (!row) throw new NotFound('Export');
    return toRdbExportDto(row);
  }

  async download(auth: AuthContext, projectId: string, exportId: string): Promise<RdbDownload> {
    await this.access.require(auth, projectId, 'member');
    const row = await this.files.getExport(projectId, exportId);
    if (!row) throw new NotFound('Export');
    if (row.expiresAt <= new Date()) throw new Gone(`Export ${row.id} expired at ${row.expiresAt.toISOString()}; export the backup again`);
    if (row.status !== 'succeeded' || !row.objectKey || row.sizeBytes === null) throw new Conflict(`Export ${row.id} is ${row.status}; download it once it has succeeded`, 'export_not_ready');
    const archive = await this.backups.getArchive(row.instanceId);
    const instance = await this.instances.get(projectId, row.instanceId);
    if (!archive || !instance) throw new NotFound('Export');
    const key = Buffer.from(decryptSecret(this.config.masterKey, archive.dataKeyEncrypted), 'base64');
    const { body } = await this.store.require().get(row.objectKey);
    const plain = openStream(key, row.objectKey);
    body.once('error', (error) => plain.destroy(error));
    return { fileName: `${instance.name}-${row.backupId}.rdb`, sizeBytes: row.sizeBytes, body: body.pipe(plain) };
  }
}
