import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min, MaxLength } from 'class-validator';
import { Type } from 'class-transformer';
import { METRIC_SERIES_KEYS, SLOWLOG_MAX_COUNT, type MetricSeriesKey } from '@basalt/api-client/rules';

export class InstanceMetricsQuery {
  @ApiPropertyOptional({ example: '1h', description: 'How far back: `<n>m`, `<n>h` or `<n>d`, from 15m to 7d (default 1h)' })
  @IsOptional()
  @IsString()
  @MaxLength(8)
  range?: string;

  @ApiPropertyOptional({
    example: 'ops_read,ops_write',
    description: 'Only these series (comma-separated keys of the fixed set, a repeated key answered once, at most as many names as there are series); default all',
  })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  series?: string;
}

export class MetricPointDto {
  @ApiProperty({ description: 'Unix time, seconds' }) t: number;
  @ApiProperty() v: number;
}

export class MetricSeriesDto {
  @ApiProperty({ enum: METRIC_SERIES_KEYS }) key: MetricSeriesKey;
  @ApiProperty({ example: 'ops/s', description: 'ops/s, seconds, bytes, count or ratio' }) unit: string;
  @ApiProperty({ type: [MetricPointDto], description: 'Empty when the instance has no such data in the range (e.g. replication lag of a standalone instance)' })
  points: MetricPointDto[];
}

export class InstanceMetricsDto {
  @ApiProperty({ example: '1h' }) range: string;
  @ApiProperty({ description: 'Unix time, seconds' }) start: number;
  @ApiProperty({ description: 'Unix time, seconds' }) end: number;
  @ApiProperty({ description: 'Seconds between points' }) step_seconds: number;
  @ApiProperty({ description: 'Seconds each rate and percentile is computed over' }) window_seconds: number;
  @ApiProperty({ description: "The instance's disk (disk_gib) in bytes, what disk_used is measured against" }) disk_limit_bytes: number;
  @ApiProperty({ type: [MetricSeriesDto] }) series: MetricSeriesDto[];
}

export class InstanceSlowlogQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: SLOWLOG_MAX_COUNT, default: 50, description: 'Newest entries per node' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(SLOWLOG_MAX_COUNT)
  count?: number;
}

export class SlowlogEntryDto {
  @ApiProperty({ description: 'The node (VM) whose slow log holds it' }) node: string;
  @ApiProperty({ description: "The entry's id on that node" }) id: number;
  @ApiProperty({ format: 'date-time' }) time: string;
  @ApiProperty({ description: 'Microseconds the command ran' }) duration_us: number;
  @ApiProperty({ type: [String], description: 'The command and its arguments as the engine kept them: at most 32, each cut to 128 bytes, passwords redacted' })
  command: string[];
  @ApiProperty({ example: '10.77.0.1:50312' }) client_address: string;
  @ApiProperty() client_name: string;
}

export class InstanceSlowlogDto {
  @ApiProperty({ type: [SlowlogEntryDto], description: 'Newest first' }) items: SlowlogEntryDto[];
}
