import { ApiProperty } from '@nestjs/swagger';
import type { RdbExportRow, RdbImportRow } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';
import { BackupErrorDto } from './backup.dto.js';

export const RDB_EXPORT_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;

export class RdbExportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) backup_id: string;
  @ApiProperty({ format: 'uuid' }) instance_id: string;
  @ApiProperty({ enum: RDB_EXPORT_STATUSES, description: '`succeeded`: the RDB file can be downloaded until expires_at' })
  status: (typeof RDB_EXPORT_STATUSES)[number];
  @ApiProperty({ nullable: true, type: Number, description: 'Bytes of the RDB file; null until it is made' }) size_bytes: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: '24 hours after it was asked for: the download is refused (410) and the file removed from then on' }) expires_at: string;
  @ApiProperty({ type: BackupErrorDto, nullable: true }) error: BackupErrorDto | null;
}

export class RdbExportAcceptedDto {
  @ApiProperty({ type: RdbExportDto }) export: RdbExportDto;
  @ApiProperty({ type: OperationDto, description: 'The `rdb_export` operation that makes the file' }) operation: OperationDto;
}

export class RdbImportDto {
  @ApiProperty({ format: 'uuid', description: 'Give it as restore_from.rdb_import_id to create an instance from the file' }) id: string;
  @ApiProperty({ description: 'Bytes received' }) size_bytes: number;
  @ApiProperty({ description: 'SHA-256 (hex) of the bytes received' }) sha256: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', description: 'After it, no instance can be created from it and it is removed' }) expires_at: string;
}

export class RdbImportLimitsDto {
  @ApiProperty({ description: 'The largest RDB file an upload may be, in bytes (BASALT_RDB_IMPORT_MAX_BYTES); 413 beyond' }) max_bytes: number;
  @ApiProperty({ description: 'Seconds an upload can be created from, then it is removed' }) expires_after_seconds: number;
}

export function toRdbExportDto(row: RdbExportRow): RdbExportDto {
  return {
    id: row.id,
    backup_id: row.backupId,
    instance_id: row.instanceId,
    status: row.status,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    error: (row.error ?? null) as BackupErrorDto | null,
  };
}

export function toRdbImportDto(row: RdbImportRow): RdbImportDto {
  return { id: row.id, size_bytes: row.sizeBytes, sha256: row.sha256, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt.toISOString() };
}
