import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches, MaxLength } from 'class-validator';
import type { InstanceTypeRow, RegionRow, TypeReportRow } from '@basalt/db';
import { ARCHITECTURES, type Architecture } from '@basalt/api-client/rules';
import { REPORT_ORIGINS } from '../benchmarks/type-report.dto.js';

export class RegionDto {
  @ApiProperty({ example: 'local' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'local', description: 'Terraform target module the region maps to' }) target: string;
  @ApiProperty({ description: 'False while the workers cannot place VMs in the region; creates there are refused' }) available: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'Why the region is unavailable, as its workers found at their start; null when available' })
  unavailable_reason: string | null;
  @ApiProperty({ enum: ARCHITECTURES, isArray: true, example: ['standalone', 'standard'], description: 'The architectures its workers place; a create with another is refused (409 architecture_unavailable)' })
  architectures: Architecture[];
}

export class RegionListDto {
  @ApiProperty({ type: [RegionDto] }) items: RegionDto[];
}

export class InstanceTypeReferenceDto {
  @ApiProperty({ format: 'uuid', description: 'The report these figures come from (GET /v1/instance-types/{id}/benchmarks/{report})' }) report_id: string;
  @ApiProperty({ format: 'date-time', description: 'When that report finished (a published report: when it was measured)' }) published_at: string;
  @ApiProperty({ enum: REPORT_ORIGINS, description: "local: measured on this install; published: a committed report (docs/benchmarks), shown until a report made on this install replaces it" }) origin: (typeof REPORT_ORIGINS)[number];
  @ApiProperty({ format: 'date-time', description: 'When its runs started' }) measured_at: string;
  @ApiProperty({ nullable: true, type: String, description: 'The host it was measured on' }) host: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The Basalt commit it was measured with' }) commit: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'memtier-standard read-only 128 B ping-pong, ops/s' }) reads_per_sec: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'memtier-standard write-only 128 B ping-pong, ops/s' }) writes_per_sec: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'p99 latency of that read scenario, ms' }) p99_latency_ms: number | null;
}

export class InstanceTypeDto {
  @ApiProperty({ example: 'kv.standard.xlarge' }) id: string;
  @ApiProperty({ example: 'xlarge' }) size: string;
  @ApiProperty() vcpu: number;
  @ApiProperty() memory_gib: number;
  @ApiProperty() disk_gib_min: number;
  @ApiProperty() disk_gib_max: number;
  @ApiProperty() max_connections: number;
  @ApiProperty({ type: [String] }) regions: string[];
  @ApiProperty({
    type: InstanceTypeReferenceDto,
    nullable: true,
    description: "Basalt's own figures from the type's latest succeeded benchmark report: one made on this install, else the committed (published) one, with where and when it was measured; null when the type has none",
  })
  reference: InstanceTypeReferenceDto | null;
}

export class InstanceTypeListDto {
  @ApiProperty({ type: [InstanceTypeDto] }) items: InstanceTypeDto[];
}

export class InstanceTypeQuery {
  @ApiProperty({ required: false, description: 'Only types offered in this region' })
  @IsOptional()
  @MaxLength(64)
  @Matches(/^[a-z0-9-]+$/, { message: 'region must be a region id' })
  region?: string;
}

export function toRegionDto(row: RegionRow): RegionDto {
  return {
    id: row.id,
    name: row.name,
    target: row.target,
    available: row.available,
    unavailable_reason: row.available ? null : row.unavailableReason,
    architectures: ARCHITECTURES.filter((architecture) => row.architectures.includes(architecture)),
  };
}

export function toInstanceTypeDto(row: InstanceTypeRow, report?: TypeReportRow): InstanceTypeDto {
  const headline = report?.headline;
  return {
    id: row.id,
    size: row.size,
    vcpu: row.vcpu,
    memory_gib: row.memoryGib,
    disk_gib_min: row.diskGibMin,
    disk_gib_max: row.diskGibMax,
    max_connections: row.maxConnections,
    regions: row.regions,
    reference:
      report && headline && report.startedAt
        ? {
            report_id: report.id,
            published_at: (report.finishedAt ?? report.startedAt).toISOString(),
            origin: report.origin,
            measured_at: report.startedAt.toISOString(),
            host: report.host,
            commit: report.sourceCommit,
            reads_per_sec: headline.reads_per_sec,
            writes_per_sec: headline.writes_per_sec,
            p99_latency_ms: headline.p99_latency_ms,
          }
        : null,
  };
}
