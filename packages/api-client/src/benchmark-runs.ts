// A benchmark run as the API serves it (BenchmarkDto), made from its stored rows. One source for
// the API's answers and for the worker's benchmark_report job, which renders a report from the
// same shape the API serves (renderBenchmarkReport). The record types are the columns of the
// benchmarks and benchmark_scenarios tables (@basalt/db), named here without depending on it.
import { memtierCommandOf, ycsbCommandOf } from './benchmark-commands.js';
import { encryptionVariantOf } from './benchmark-encryption.js';
import type { components } from './schema.js';

type BenchmarkDto = components['schemas']['BenchmarkDto'];
type BenchmarkScenarioDto = BenchmarkDto['scenarios'][number];

export interface BenchmarkRunRecord {
  id: string;
  instanceId: string | null;
  instanceType: string;
  status: BenchmarkDto['status'];
  tool: string;
  workload: string;
  parameters: unknown;
  results: unknown;
  operationId: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  cancelRequestedAt: Date | null;
}

export interface BenchmarkScenarioRecord {
  benchmarkId: string;
  position: number;
  name: string;
  server: string;
  tool: string;
  commandLine: string;
  workload: string;
  valueSize: number | null;
  connections: number;
  pipeline: number;
  requests: number;
  qps: number;
  avgLatencyMs: number;
  p50LatencyMs: number | null;
  p99LatencyMs: number | null;
  p999LatencyMs: number | null;
  errors: number;
  engineVersion: string;
  instanceType: string;
  startedAt: Date;
  finishedAt: Date;
  /** basalt-bench's full JSON; absent in summaries (lists). */
  report?: unknown;
  /** In summaries: the report's `encryption` object (encryption-overhead), selected alone. */
  encryption?: unknown;
  /** In summaries: every round's ops/s from the report's `rounds`, selected alone. */
  rounds?: unknown;
}

/** Every round's ops/s, in round order; null for a scenario measured once (no `rounds`). */
function roundOpsOf(rounds: unknown): number[] | null {
  if (!Array.isArray(rounds) || rounds.length === 0) return null;
  const ops = rounds.map((r) => (typeof r === 'number' ? r : (r as Record<string, unknown> | null)?.['Ops/sec']));
  return ops.every((o): o is number => typeof o === 'number') ? ops : null;
}

export function benchmarkScenarioOf(row: BenchmarkScenarioRecord): BenchmarkScenarioDto {
  return {
    position: row.position,
    name: row.name,
    server: row.server as BenchmarkScenarioDto['server'],
    tool: row.tool,
    command_line: row.commandLine,
    memtier_command: memtierCommandOf(row.commandLine),
    ycsb_command: ycsbCommandOf(row.commandLine),
    workload: row.workload,
    value_size: row.valueSize,
    connections: row.connections,
    pipeline: row.pipeline,
    requests: row.requests,
    qps: row.qps,
    avg_latency_ms: row.avgLatencyMs,
    p50_latency_ms: row.p50LatencyMs,
    p99_latency_ms: row.p99LatencyMs,
    p999_latency_ms: row.p999LatencyMs,
    errors: row.errors,
    engine_version: row.engineVersion,
    instance_type: row.instanceType,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt.toISOString(),
    encryption: encryptionVariantOf('report' in row ? (row.report as { encryption?: unknown } | null)?.encryption : row.encryption),
    round_ops_per_sec: roundOpsOf('report' in row ? (row.report as { rounds?: unknown } | null)?.rounds : row.rounds),
    ...('report' in row ? { report: row.report as Record<string, unknown> } : {}),
  };
}

/** The run with its scenarios among `scenarios` (those of other runs are left out). */
export function benchmarkRunOf(row: BenchmarkRunRecord, scenarios: BenchmarkScenarioRecord[] = []): BenchmarkDto {
  return {
    id: row.id,
    instance_id: row.instanceId,
    instance_type: row.instanceType,
    status: row.status,
    tool: row.tool,
    workload: row.workload as BenchmarkDto['workload'],
    parameters: (row.parameters ?? {}) as Record<string, unknown>,
    results: (row.results ?? null) as Record<string, unknown> | null,
    scenarios: scenarios.filter((s) => s.benchmarkId === row.id).map(benchmarkScenarioOf),
    operation_id: row.operationId,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt ? row.startedAt.toISOString() : null,
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    cancel_requested_at: row.cancelRequestedAt ? row.cancelRequestedAt.toISOString() : null,
  };
}
