// The `memtier-matrix` suite: PolarDB Orca's memtier_benchmark tables as the paper lays them out
// (../shared/reference/polardb-orca-whitepaper-2026.txt): 4 value sizes (128 B, 1 KB, 4 KB,
// 16 KB) × ping-pong and --pipeline=32 × write-only, read-only and mixed 1:1 × two connection
// levels, 48 rows, each against Basalt and then Redis in the same run, with average and p99
// latency. memtier-standard stays the 6-row cut the e2e tests run; this is the per-type
// report's whole matrix.
//
// Scaled to the type and bounded for this host:
// - Connections: the paper's two levels are 128 and 512 (4× apart, for 16-core servers with the
//   client on a 64-core machine of its own). Here the lower level is memtier-standard's
//   (standardConnections: 8 per vCPU, at most 64) and the upper one 4× it, as the paper's, both
//   at most the type's connection limit. Client and servers share this host's cores, so
//   the client runs one thread, as memtier-standard's does.
// - Client memory: basalt-bench keeps a whole pipeline of values per connection, so connections
//   × pipeline × value is what it holds; the upper level is lowered until that fits the bound
//   the API puts on a custom run's client (BENCHMARK_CLIENT_MEMORY_MAX: 256 MiB), which at
//   16 KB × 32 is 512 connections.
// - Data: the paper writes millions of keys (30 GB-1.5 TB). Here each size draws its keys from a
//   range whose data (keys × value) is at most DATA_BUDGET_BYTES and an eighth of the engine's
//   cache bound on the type's VM (so Redis, noeviction, holds it too), at most 20 000 keys as
//   memtier-standard: 128 B and 1 KB 20 000 keys, 4 KB 16 384, 16 KB 4 096 (kv.standard.small).
//   Fewer keys for bigger values also means the write-only run of a few seconds has written
//   every key before the read-only run asks for it (a GET that misses sends no value back).
// - Time: each scenario is a run of the worker's scenario length (4 s) in each of 3 rounds of
//   the list (the median round's figures, rounds.ts), as memtier-standard: 48 × 2 servers × 3
//   rounds × 4 s is about 20 minutes, with the waits for background work between.
// - Order within a size and level: write-only first (it is the load the reads find), then
//   read-only, then mixed; ping-pong before pipeline 32, as the paper lists them.
import { BENCHMARK_CLIENT_MEMORY_MAX } from '@basalt/api-client/rules';
import type { InstanceTypeRow } from '@basalt/db';
import { engineMaxmemoryMb, vmSizeOf } from '../engine-settings.js';
import { STANDARD_SCENARIO_SECONDS, standardConnections, type Scenario } from './suites.js';

export const MATRIX_SIZES = [128, 1024, 4096, 16_384] as const;
export const MATRIX_PIPELINES = [1, 32] as const;
/** The paper's two levels are 128 and 512: the upper is 4× the lower. */
export const MATRIX_LEVEL_FACTOR = 4;
/** Keys per size at most (memtier-standard's range). */
const KEYS_MAX = 20_000;
/** Data of one size's key range at most (keys × value). */
const DATA_BUDGET_BYTES = 64 * 1024 * 1024;
const ROUNDS = 3;
const TIMEOUT_MS = 120_000;

const WORKLOADS = [
  { workload: 'write-only', ratio: '1:0', label: 'write-only' },
  { workload: 'read-only', ratio: '0:1', label: 'read-only' },
  { workload: 'mixed-1:1', ratio: '1:1', label: 'mixed 1:1' },
] as const;

const sizeLabel = (size: number) => (size >= 1024 ? `${size / 1024} KB` : `${size} B`);

/** The two connection levels for `type`: the standard level and 4× it, each within the type's connection limit. */
export function matrixConnectionLevels(type: Pick<InstanceTypeRow, 'vcpu' | 'maxConnections'>): [number, number] {
  const low = Math.min(standardConnections(type), type.maxConnections);
  return [low, Math.min(low * MATRIX_LEVEL_FACTOR, type.maxConnections)];
}

/** Connections at `level`, lowered until the client's buffers (connections × pipeline × value) fit its memory bound. */
export function matrixConnections(level: number, pipeline: number, size: number): number {
  return Math.max(1, Math.min(level, Math.floor(BENCHMARK_CLIENT_MEMORY_MAX / (pipeline * size))));
}

/** Keys of one size's range: at most 20 000, and their data within the budget and an eighth of the engine's cache bound. */
export function matrixKeys(type: Pick<InstanceTypeRow, 'vcpu' | 'memoryGib'>, size: number): number {
  const cacheBytes = engineMaxmemoryMb(vmSizeOf(type as InstanceTypeRow)) * 1024 * 1024;
  const bytes = Math.min(DATA_BUDGET_BYTES, cacheBytes / 8);
  return Math.max(1, Math.min(KEYS_MAX, Math.floor(bytes / size)));
}

export function memtierMatrix(type: InstanceTypeRow, seconds = STANDARD_SCENARIO_SECONDS): Scenario[] {
  const levels = matrixConnectionLevels(type);
  const keysBySize = MATRIX_SIZES.map((size) => `${sizeLabel(size)} ${matrixKeys(type, size)}`).join(', ');
  const scaling =
    `two connection levels, ${levels[0]} and ${levels[1]} (the lower memtier-standard's 8 per vCPU of the type's ${type.vcpu}, at most 64; the upper ${MATRIX_LEVEL_FACTOR}× it as the paper's 512 is 4× its 128; both within the type's ${type.maxConnections} connections, ` +
    `and lowered where connections × pipeline × value would pass the client's ${BENCHMARK_CLIENT_MEMORY_MAX / 2 ** 20} MiB of buffers), 1 client thread; keys per value size ${keysBySize} (at most 20 000, their data within 64 MiB and an eighth of the engine's cache bound); ` +
    `a run of ${seconds} s per scenario in each of ${ROUNDS} rounds of the list, the figure the median round's; the paper ran 128 and 512 connections of 32 client threads and millions of requests over 30 GB-1.5 TB`;
  const scenarios: Scenario[] = [];
  for (const size of MATRIX_SIZES) {
    const keys = matrixKeys(type, size);
    for (const level of levels) {
      for (const pipeline of MATRIX_PIPELINES) {
        const connections = matrixConnections(level, pipeline, size);
        const common = ['--threads=1', `--clients=${connections}`, '--random-data', '--distinct-client-seed', '--key-prefix=memtier-', '--key-minimum=1', `--key-maximum=${keys}`, '--key-pattern=R:R', `--test-time=${seconds}`, `--data-size=${size}`];
        for (const w of WORKLOADS) {
          scenarios.push({
            name: `${w.label} ${sizeLabel(size)}, ${pipeline === 1 ? 'ping-pong' : `pipeline ${pipeline}`}, ${connections} conns`,
            mode: 'memtier',
            workload: w.workload,
            valueSize: size,
            connections,
            pipeline,
            flags: [...common, `--ratio=${w.ratio}`, `--pipeline=${pipeline}`],
            timeoutMs: TIMEOUT_MS,
            rounds: ROUNDS,
            scaling,
          });
        }
      }
    }
  }
  return scenarios;
}
