import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { OperationRow } from '@basalt/db';

export const OPERATION_TYPES = ['create', 'modify', 'restart', 'delete', 'apply_users', 'apply_allowlist', 'benchmark', 'failover', 'benchmark_report', 'backup', 'rdb_export'] as const;
export const OPERATION_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;

export class OperationStepDto {
  @ApiProperty({ example: 'terraform_apply' }) name: string;
  @ApiProperty({ enum: OPERATION_STATUSES }) status: (typeof OPERATION_STATUSES)[number];
  @ApiProperty({ format: 'date-time', required: false }) started_at?: string;
  @ApiProperty({ format: 'date-time', required: false }) finished_at?: string;
}

export class OperationErrorDto {
  @ApiProperty({ nullable: true, type: String, description: 'Step that failed' }) step: string | null;
  @ApiProperty() message: string;
  @ApiProperty({ required: false, nullable: true, type: Number, description: 'Exit status of the failing tool' }) exit_code?: number | null;
  @ApiProperty({ required: false, description: "Tail of the failing tool's output" }) output_tail?: string;
  @ApiProperty({ required: false }) code?: string;
}

export class OperationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) project_id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) instance_id: string | null;
  @ApiProperty({ enum: OPERATION_TYPES }) type: (typeof OPERATION_TYPES)[number];
  @ApiProperty({ enum: OPERATION_STATUSES }) status: (typeof OPERATION_STATUSES)[number];
  @ApiProperty({ minimum: 0, maximum: 100 }) progress: number;
  @ApiProperty({ type: [OperationStepDto] }) steps: OperationStepDto[];
  @ApiProperty({ type: OperationErrorDto, nullable: true }) error: OperationErrorDto | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class OperationListDto {
  @ApiProperty({ type: [OperationDto] }) items: OperationDto[];
  @ApiProperty({ nullable: true, type: String, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor: string | null;
}

export class OperationListQuery {
  @ApiProperty({ required: false, minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toOperationDto(row: OperationRow): OperationDto {
  return {
    id: row.id,
    project_id: row.projectId,
    instance_id: row.instanceId,
    type: row.type,
    status: row.status,
    progress: row.progress,
    steps: (row.steps ?? []) as OperationStepDto[],
    error: (row.error ?? null) as OperationErrorDto | null,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    updated_at: row.updatedAt.toISOString(),
  };
}
