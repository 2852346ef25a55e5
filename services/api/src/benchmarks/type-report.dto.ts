import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsOptional } from 'class-validator';
import { STANDARD_SUITES, type StandardSuite } from '@basalt/api-client/rules';
import type { ReportHeadline, ReportPeer, TypeReportRow } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';
import { INSTANCE_STATUSES } from '../instances/instance.dto.js';
import { BENCHMARK_STATUSES, BenchmarkDto } from './benchmark.dto.js';

export const REPORT_ORIGINS = ['local', 'published'] as const;

export class CreateTypeReportDto {
  @ApiPropertyOptional({
    type: [String],
    enum: STANDARD_SUITES,
    description: 'The standard suites to run (default: all of them); they run in the order memtier-standard, ycsb-standard, canonical, encryption-overhead, memtier-matrix, canonical-tables, canonical-durability, each on an empty engine (encryption-overhead on engines of its own started for the run). A custom run has no place in a report.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STANDARD_SUITES.length)
  @ArrayUnique()
  @IsIn(STANDARD_SUITES, { each: true, message: `each suite must be one of ${STANDARD_SUITES.join(', ')} (a custom run has no place in a report)` })
  suites?: StandardSuite[];
}

export class ReportPeerDto {
  @ApiProperty({ enum: ['redis', 'memcached'] }) server: ReportPeer['server'];
  @ApiProperty({ example: 'Redis 7.0.15' }) version: string;
}

export class ReportHeadlineDto {
  @ApiProperty({ nullable: true, type: Number, description: 'memtier-standard read-only 128 B ping-pong on Basalt, ops/s' }) reads_per_sec: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'memtier-standard write-only 128 B ping-pong on Basalt, ops/s' }) writes_per_sec: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'p99 latency of that read scenario, ms' }) p99_latency_ms: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Median of Basalt/peer throughput over the scenarios with a peer figure' }) peer_ratio: number | null;
}

export class ReportInstanceDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: INSTANCE_STATUSES, description: "The temporary instance's status: deleted once the report's job removed it" }) status: (typeof INSTANCE_STATUSES)[number];
}

export class InstanceTypeReportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'kv.standard.small' }) instance_type: string;
  @ApiProperty({ enum: BENCHMARK_STATUSES }) status: (typeof BENCHMARK_STATUSES)[number];
  @ApiProperty({ type: [String], enum: STANDARD_SUITES, description: 'The suites asked for, in the order they run' }) suites: string[];
  @ApiProperty({ nullable: true, type: String, description: 'basalt-server version measured' }) engine_version: string | null;
  @ApiProperty({ type: [ReportPeerDto], description: 'The peers measured beside Basalt in the same runs' }) peers: ReportPeerDto[];
  @ApiProperty({ description: 'Where the runs went: the shared host, its load, where client, instance and peers ran (empty until the report is made)' }) environment: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) operation_id: string | null;
  @ApiProperty({ type: ReportInstanceDto, nullable: true, description: "The temporary instance measured (the platform's own project, never a customer's)" }) instance: ReportInstanceDto | null;
  @ApiProperty({ type: ReportHeadlineDto, nullable: true, description: "Computed from the runs' rows; null until the report succeeded" }) headline: ReportHeadlineDto | null;
  @ApiProperty({ type: [BenchmarkDto], description: "The runs (one per suite), each scenario beside its peer; in lists without the tool's JSON reports. Empty for a published report (its figures are in its document: GET …/{report}/report.json)" }) runs: BenchmarkDto[];
  @ApiProperty({ enum: REPORT_ORIGINS, description: 'local: made on this install; published: a committed report (docs/benchmarks) loaded at the API\'s start, measured where and when its host, measured_at and commit say' })
  origin: (typeof REPORT_ORIGINS)[number];
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the runs started (for a published report: the date its document names)' }) measured_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The host the runs went on (CPU, cores, memory, kernel); null for a report made before it was recorded' }) host: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The Basalt commit the worker and engine were built from; null when unknown' }) commit: string | null;
}

export class InstanceTypeReportListDto {
  @ApiProperty({ type: [InstanceTypeReportDto] }) items: InstanceTypeReportDto[];
}

export class InstanceTypeReportOneDto {
  @ApiProperty({ type: InstanceTypeReportDto }) report: InstanceTypeReportDto;
}

export class InstanceTypeReportAcceptedDto {
  @ApiProperty({ type: InstanceTypeReportDto }) report: InstanceTypeReportDto;
  @ApiProperty({ type: OperationDto }) operation: OperationDto;
}

export function toTypeReportDto(row: TypeReportRow, instanceStatus: ReportInstanceDto['status'] | undefined, runs: BenchmarkDto[]): InstanceTypeReportDto {
  return {
    id: row.id,
    instance_type: row.instanceType,
    status: row.status,
    suites: row.suites,
    engine_version: row.engineVersion,
    peers: row.peers,
    environment: row.environment ?? '',
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt ? row.startedAt.toISOString() : null,
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    operation_id: row.operationId,
    instance: row.instanceId && instanceStatus ? { id: row.instanceId, status: instanceStatus } : null,
    headline: row.status === 'succeeded' ? ((row.headline as ReportHeadline | null) ?? null) : null,
    runs,
    origin: row.origin,
    measured_at: row.startedAt ? row.startedAt.toISOString() : null,
    host: row.host,
    commit: row.sourceCommit,
  };
}
