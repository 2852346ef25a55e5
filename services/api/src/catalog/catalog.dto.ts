import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches, MaxLength } from 'class-validator';
import type { InstanceTypeRow, RegionRow } from '@basalt/db';

export class RegionDto {
  @ApiProperty({ example: 'local' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'local', description: 'Terraform target module the region maps to' }) target: string;
  @ApiProperty() available: boolean;
}

export class RegionListDto {
  @ApiProperty({ type: [RegionDto] }) items: RegionDto[];
}

export class InstanceTypeDto {
  @ApiProperty({ example: 'kv.standard.xlarge' }) id: string;
  @ApiProperty({ example: 'xlarge' }) size: string;
  @ApiProperty() vcpu: number;
  @ApiProperty() memory_gib: number;
  @ApiProperty() disk_gib_min: number;
  @ApiProperty() disk_gib_max: number;
  @ApiProperty() max_connections: number;
  @ApiProperty() bandwidth_mbps: number;
  @ApiProperty({ type: [String] }) regions: string[];
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
  return { id: row.id, name: row.name, target: row.target, available: row.available };
}

export function toInstanceTypeDto(row: InstanceTypeRow): InstanceTypeDto {
  return {
    id: row.id,
    size: row.size,
    vcpu: row.vcpu,
    memory_gib: row.memoryGib,
    disk_gib_min: row.diskGibMin,
    disk_gib_max: row.diskGibMax,
    max_connections: row.maxConnections,
    bandwidth_mbps: row.bandwidthMbps,
    regions: row.regions,
  };
}
