import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { benchmarkRunOf } from '@basalt/api-client';
import { BENCHMARK_FLAG_NAMES, BENCHMARK_FLAGS_MAX, BENCHMARK_SUITES, type BenchmarkSuite } from '@basalt/api-client/rules';
import type { BenchmarkRow, BenchmarkScenarioRow, BenchmarkScenarioSummary } from '@basalt/db';
import { OperationDto } from '../operations/operation.dto.js';

export const BENCHMARK_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'cancelled'] as const;

export class EncryptionVariantDto {
  @ApiProperty({ description: "Clients spoke TLS to the engine's TLS port; its plaintext port was off" }) tls: boolean;
  @ApiProperty({ description: 'The engine sealed every key and value it wrote to disk (AES-256-GCM, a random 32-byte key)' }) at_rest: boolean;
}

export class BenchmarkScenarioDto {
  @ApiProperty({ example: 1 }) position: number;
  @ApiProperty({ example: 'write-only 128 B, ping-pong' }) name: string;
  @ApiProperty({
    enum: ['basalt', 'redis', 'memcached'],
    description: "The server measured: the instance (basalt) or the run's peer, Redis 7 or memcached from Debian, measured in the same run on the same VM size (its version in engine_version)",
  })
  server: string;
  @ApiProperty({ example: 'basalt-bench 1.0.0' }) tool: string;
  @ApiProperty({ description: 'The exact command the worker ran, the password shown as <password>' }) command_line: string;
  @ApiProperty({ nullable: true, type: String, description: 'The same run with memtier_benchmark (memtier scenarios; null otherwise)' }) memtier_command: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The same run with YCSB (ycsb-standard; null otherwise): its redis binding, with the Tair paper's string command group",
  })
  ycsb_command: string | null;
  @ApiProperty({ example: 'write-only' }) workload: string;
  @ApiProperty({ nullable: true, type: Number, description: 'Bytes; null when sizes vary' }) value_size: number | null;
  @ApiProperty() connections: number;
  @ApiProperty() pipeline: number;
  @ApiProperty({ description: 'Requests sent' }) requests: number;
  @ApiProperty({ description: 'Operations per second' }) qps: number;
  @ApiProperty() avg_latency_ms: number;
  @ApiProperty({ nullable: true, type: Number }) p50_latency_ms: number | null;
  @ApiProperty({ nullable: true, type: Number }) p99_latency_ms: number | null;
  @ApiProperty({ nullable: true, type: Number }) p999_latency_ms: number | null;
  @ApiProperty() errors: number;
  @ApiProperty() engine_version: string;
  @ApiProperty() instance_type: string;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ format: 'date-time' }) finished_at: string;
  @ApiProperty({
    type: EncryptionVariantDto,
    nullable: true,
    description: "encryption-overhead: the encryptions of the engine the scenario measured (started for it, not the instance), as its INFO security reported them; null for every other scenario",
  })
  encryption: EncryptionVariantDto | null;
  @ApiProperty({
    type: [Number],
    nullable: true,
    description: 'For a scenario measured in rounds (memtier-standard and encryption-overhead: 3), every round\'s ops/s in round order; `qps` and the latencies are the median round\'s. Null for a scenario measured once. In lists too',
  })
  round_ops_per_sec: number[] | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "basalt-bench's full JSON report (memtier_benchmark's layout); for a scenario measured in rounds (memtier-standard and encryption-overhead: 3), the median round's, with `rounds` listing every round (its number, whether it is the median, ops/s, requests, start, end and JSON report); in GET of one run, not in lists" })
  report?: Record<string, unknown>;
}

export class BenchmarkDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) instance_id: string | null;
  @ApiProperty() instance_type: string;
  @ApiProperty({ enum: BENCHMARK_STATUSES }) status: (typeof BENCHMARK_STATUSES)[number];
  @ApiProperty({ example: 'basalt-bench' }) tool: string;
  @ApiProperty({ enum: BENCHMARK_SUITES, description: 'The suite that ran' }) workload: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'What was asked: {"flags": [...]} for a custom run' }) parameters: Record<string, unknown>;
  @ApiProperty({ type: Object, additionalProperties: true, nullable: true }) results: Record<string, unknown> | null;
  @ApiProperty({ type: [BenchmarkScenarioDto], description: 'The scenarios measured so far, in the order they ran' }) scenarios: BenchmarkScenarioDto[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) operation_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) started_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) finished_at: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) cancel_requested_at: string | null;
}

export class BenchmarkListDto {
  @ApiProperty({ type: [BenchmarkDto] }) items: BenchmarkDto[];
}

export class CreateBenchmarkDto {
  @ApiProperty({
    enum: BENCHMARK_SUITES,
    description:
      "memtier-standard: the white papers' memtier_benchmark matrix, shortened and scaled to the type; ycsb-standard: YCSB load, uniform read, zipfian read and uniform 50/50 update with the data in memory (memory:data 7:1) and larger than memory (1:4, the engine's cold reads recorded); canonical: RethinkDB's canonical workload over the memcached protocol (1 delete / 4 updates / 8 inserts / 64 reads, reads of 1-16 keys); encryption-overhead: memtier's mixed 1:1 (ping-pong, 128 B and 4 KB) against four engines of the instances' build started for the run beside the instance (no encryption, TLS, encryption at rest, both), each row's overhead in % against the first; memtier-matrix: the papers' whole memtier matrix, 48 rows (128 B, 1 KB, 4 KB, 16 KB × ping-pong and pipeline 32 × write-only, read-only, mixed 1:1 × two connection levels scaled to the type), about 20 minutes; canonical-tables: RethinkDB's pure select, pure insert, low memory (the cache bound at a quarter of the data for that run), concurrent connections (16 to 1,024) and large values (4-64 KB) over the memcached protocol, beside memcached; canonical-durability: the canonical mix over RESP at appendfsync always and everysec (set for the run, the instance's policy put back), beside Redis; custom: one run with your basalt-bench flags",
  })
  @IsIn(BENCHMARK_SUITES)
  workload: BenchmarkSuite;

  @ApiPropertyOptional({
    type: [String],
    maxItems: BENCHMARK_FLAGS_MAX,
    example: ['--ratio=1:1', '--data-size=512', '--pipeline=8', '--test-time=5'],
    description: `For custom only: basalt-bench (memtier_benchmark) load flags, one token each. Allowed: ${BENCHMARK_FLAG_NAMES.join(', ')}`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BENCHMARK_FLAGS_MAX)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  flags?: string[];
}

/** The run as served, from its rows (one source with the worker's report job: @basalt/api-client). */
export function toBenchmarkDto(row: BenchmarkRow, scenarios: (BenchmarkScenarioSummary | BenchmarkScenarioRow)[] = []): BenchmarkDto {
  return benchmarkRunOf(row, scenarios);
}

export class BenchmarkAcceptedDto {
  @ApiProperty({ type: BenchmarkDto }) benchmark: BenchmarkDto;
  @ApiProperty({ type: OperationDto }) operation: OperationDto;
}
