import { ApiProperty } from '@nestjs/swagger';
import type { BackupRow } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';

export const BACKUP_KINDS = ['manual', 'automatic', 'final'] as const;
export const BACKUP_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'deleting'] as const;

export class BackupErrorDto {
  @ApiProperty({ example: 'object_store_unavailable' }) code: string;
  @ApiProperty() message: string;
  @ApiProperty({ required: false, description: 'The step of the backup operation that failed' }) step?: string;
}

export class BackupDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) instance_id: string;
  @ApiProperty({ enum: BACKUP_KINDS, description: '`manual`: asked for, kept until deleted; `automatic`: the daily backup in the window; `final`: taken when the instance was deleted' })
  kind: (typeof BACKUP_KINDS)[number];
  @ApiProperty({ enum: BACKUP_STATUSES, description: '`deleting`: asked to go; its objects are removed, then it leaves the list' })
  status: (typeof BACKUP_STATUSES)[number];
  @ApiProperty({ nullable: true, type: Number, description: "The log's timeline the base was read from (a failover starts the next)" }) timeline: number | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The point the backup is consistent at: the earliest it restores to; null until it has succeeded' })
  end_time: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The log position of end_time' }) end_lsn: number | null;
  @ApiProperty({ description: 'Bytes of data the backup restores (every segment it names)' }) size_bytes: number;
  @ApiProperty({ description: 'Log segments it names' }) segments: number;
  @ApiProperty({ description: 'Bytes this backup uploaded itself; the rest the archive or an earlier backup had stored' }) uploaded_bytes: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When retention removes it; null: kept until deleted' }) expires_at: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The `backup` operation that takes it' }) operation_id: string | null;
  @ApiProperty({ type: BackupErrorDto, nullable: true }) error: BackupErrorDto | null;
}

export class BackupListDto {
  @ApiProperty({ type: [BackupDto], description: 'Newest first' }) items: BackupDto[];
}

export class BackupAcceptedDto {
  @ApiProperty({ type: BackupDto }) backup: BackupDto;
  @ApiProperty({ type: OperationDto }) operation: OperationDto;
}

export class TimelineSpanDto {
  @ApiProperty({ description: 'The log\'s timeline: 1 at first, the next after each failover' }) timeline: number;
  @ApiProperty({ format: 'date-time', description: 'The earliest point on it, to the second (its oldest backup\'s consistent point)' }) earliest: string;
  @ApiProperty({ format: 'date-time', description: 'The latest point on it, to the second: where a failover ended it, or how far the archive has come on the current one' }) latest: string;
}

export class RestoreGapDto {
  @ApiProperty({ format: 'date-time', description: 'The first whole second no restore reaches' }) from: string;
  @ApiProperty({ format: 'date-time', description: 'The last whole second no restore reaches' }) to: string;
  @ApiProperty({ description: 'The timeline a failover ended just before the gap' }) ended_timeline: number;
  @ApiProperty({ description: 'The timeline whose first backup ends the gap' }) next_timeline: number;
}

export class RestoreWindowDto {
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The earliest point a restore reaches (the oldest backup\'s consistent point, to the second); null: nothing to restore to yet' })
  earliest: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'The latest point, to the second: when the archive last caught up with the instance\'s log (or its newest record, or the newest backup\'s point)' })
  latest: string | null;
  @ApiProperty({ type: [TimelineSpanDto], description: 'Which timeline covers which span, oldest first; a point inside one of them restores exactly' })
  timelines: TimelineSpanDto[];
  @ApiProperty({
    type: [RestoreGapDto],
    description: 'Seconds between earliest and latest that no restore reaches exactly: after a failover ended a timeline and before the next timeline\'s first backup. Empty: there is none',
  })
  gaps: RestoreGapDto[];
  @ApiProperty({ nullable: true, type: Number, description: 'Seconds since the archive last caught up with the instance\'s log (at most a seal interval or two while it keeps up); null before its first pass' })
  archive_lag_seconds: number | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the newest succeeded backup finished' })
  last_backup_at: string | null;
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);
/** RFC 3339 to the second: a restore stops at a whole second, and that is what it accepts. */
export const isoSecond = (at: Date | null) => (at ? at.toISOString().replace(/\.\d{3}Z$/, 'Z') : null);

export function toBackupDto(row: BackupRow): BackupDto {
  return {
    id: row.id,
    instance_id: row.instanceId,
    kind: row.kind,
    status: row.status,
    timeline: row.timeline,
    end_time: iso(row.endTime),
    end_lsn: row.endLsn,
    size_bytes: row.sizeBytes,
    segments: row.segments,
    uploaded_bytes: row.uploadedBytes,
    created_at: row.createdAt.toISOString(),
    finished_at: iso(row.finishedAt),
    expires_at: iso(row.expiresAt),
    operation_id: row.operationId,
    error: (row.error ?? null) as BackupErrorDto | null,
  };
}
