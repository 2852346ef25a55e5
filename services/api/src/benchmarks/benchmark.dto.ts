import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional } from 'class-validator';
import type { BenchmarkRow } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';

export const BENCHMARK_WORKLOADS = ['memtier-default', 'ycsb-load', 'ycsb-uniform-read', 'ycsb-zipfian-read', 'ycsb-uniform-50-50'] as const;
export const BENCHMARK_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;

export class BenchmarkDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) instance_id: string | null;
  @ApiProperty() instance_type: string;
  @ApiProperty({ enum: BENCHMARK_STATUSES }) status: (typeof BENCHMARK_STATUSES)[number];
  @ApiProperty({ example: 'basalt-bench' }) tool: string;
  @ApiProperty({ example: 'memtier-default' }) workload: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) parameters: Record<string, unknown>;
  @ApiProperty({ type: Object, additionalProperties: true, nullable: true }) results: Record<string, unknown> | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) operation_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
}

export class BenchmarkListDto {
  @ApiProperty({ type: [BenchmarkDto] }) items: BenchmarkDto[];
}

export class CreateBenchmarkDto {
  @ApiProperty({ enum: BENCHMARK_WORKLOADS, description: 'Workload of the published method (memtier_benchmark or YCSB)' })
  @IsIn(BENCHMARK_WORKLOADS)
  workload: (typeof BENCHMARK_WORKLOADS)[number];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Tool flags, e.g. {"threads": 4, "clients": 50}' })
  @IsOptional()
  @IsObject()
  parameters?: Record<string, unknown>;
}

export function toBenchmarkDto(row: BenchmarkRow): BenchmarkDto {
  return {
    id: row.id,
    instance_id: row.instanceId,
    instance_type: row.instanceType,
    status: row.status,
    tool: row.tool,
    workload: row.workload,
    parameters: (row.parameters ?? {}) as Record<string, unknown>,
    results: (row.results ?? null) as Record<string, unknown> | null,
    operation_id: row.operationId,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

export class BenchmarkAcceptedDto {
  @ApiProperty({ type: BenchmarkDto }) benchmark: BenchmarkDto;
  @ApiProperty({ type: OperationDto }) operation: OperationDto;
}
