// A per-type report as the API serves it, for the Instance types page's tests: memtier-standard
// (two value sizes, ping-pong and pipeline 32, Redis beside it) and canonical (memcached beside it).
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import type { TypeReport } from '@/data/type-reports/type-report-types'

type Scenario = Benchmark['scenarios'][number]

function scenario(position: number, server: Scenario['server'], fields: Partial<Scenario>): Scenario {
  return {
    position,
    name: `scenario ${position}`,
    server,
    tool: 'basalt-bench 0.1.0',
    command_line: `basalt-bench --server=10.77.255.${server === 'basalt' ? 1 : 2} --scenario=${position}`,
    memtier_command: server === 'basalt' ? `memtier_benchmark --scenario=${position}` : null,
    ycsb_command: null,
    workload: 'write-only',
    value_size: 128,
    connections: 16,
    pipeline: 1,
    requests: 20_000,
    qps: 1000,
    avg_latency_ms: 1,
    p50_latency_ms: 0.9,
    p99_latency_ms: 2,
    p999_latency_ms: 3,
    errors: 0,
    engine_version: server === 'basalt' ? '0.1.0' : 'Redis 7.0.15',
    instance_type: 'kv.standard.small',
    started_at: '2026-11-24T01:00:00Z',
    finished_at: '2026-11-24T01:00:05Z',
    encryption: null,
    round_ops_per_sec: null,
    ...fields,
  }
}

// memtier-standard as the worker plans it: per value size, write and read ping-pong, mixed at pipeline 32.
const matrix = [
  [1, 'write-only', 128, 1, 30_000, 20_000],
  [2, 'read-only', 128, 1, 40_000, 32_000],
  [3, 'mixed-1:1', 128, 32, 200_000, 160_000],
  [4, 'write-only', 4096, 1, 20_000, 16_000],
  [5, 'read-only', 4096, 1, 25_000, 25_000],
  [6, 'mixed-1:1', 4096, 32, 90_000, 100_000],
] as const
export const memtier: Benchmark = {
  id: 'run-memtier',
  instance_id: null,
  instance_type: 'kv.standard.small',
  status: 'succeeded',
  tool: 'basalt-bench',
  workload: 'memtier-standard',
  parameters: {},
  results: { scaling: ['16 connections'], peer: { placement: 'Redis 7.0.15 in its own namespace' } },
  scenarios: matrix.flatMap(([position, workload, size, pipeline, basalt, redis]) => [
    scenario(position, 'basalt', { name: `${workload} ${size}`, workload, value_size: size, pipeline, qps: basalt, p99_latency_ms: pipeline === 1 ? 1.5 : 4 }),
    scenario(position, 'redis', { name: `${workload} ${size}`, workload, value_size: size, pipeline, qps: redis, p99_latency_ms: pipeline === 1 ? 2 : 5 }),
  ]),
  operation_id: null,
  created_at: '2026-11-24T01:00:00Z',
  started_at: '2026-11-24T01:00:00Z',
  finished_at: '2026-11-24T01:02:00Z',
  cancel_requested_at: null,
}
// canonical: value sizes vary (null), one mixed scenario, memcached beside it.
export const canonical: Benchmark = {
  ...memtier,
  id: 'run-canonical',
  workload: 'canonical',
  scenarios: [
    scenario(1, 'basalt', { name: 'canonical', workload: 'canonical', value_size: null, qps: 50_000 }),
    scenario(1, 'memcached', { name: 'canonical', workload: 'canonical', value_size: null, qps: 60_000, engine_version: 'memcached 1.6.21' }),
  ],
}

// encryption-overhead: the same engine without encryption, with TLS, at rest, both (no peer).
const variants = [
  [false, false, 10_000],
  [true, false, 8_000],
  [false, true, 9_900],
  [true, true, 7_600],
] as const
export const encryption: Benchmark = {
  ...memtier,
  id: 'run-encryption',
  workload: 'encryption-overhead',
  scenarios: variants.map(([tls, at_rest, qps], i) =>
    scenario(i + 1, 'basalt', { name: `mixed 1:1 128 B, ping-pong ${i + 1}`, workload: 'mixed-1:1', qps, encryption: { tls, at_rest } }),
  ),
}

export const report: TypeReport = {
  id: 'report-1',
  instance_type: 'kv.standard.small',
  status: 'succeeded',
  suites: ['memtier-standard', 'canonical'],
  engine_version: '0.1.0',
  peers: [{ server: 'redis', version: 'Redis 7.0.15' }, { server: 'memcached', version: 'memcached 1.6.21' }],
  environment: 'A shared 2-core host: client, Basalt and the peer on it.',
  created_at: '2026-11-24T01:00:00Z',
  started_at: '2026-11-24T01:00:00Z',
  finished_at: '2026-11-24T01:05:00Z',
  operation_id: 'op-1',
  instance: { id: 'inst-1', status: 'deleted' },
  headline: { reads_per_sec: 40_000, writes_per_sec: 30_000, p99_latency_ms: 1.5, peer_ratio: 1.234 },
  runs: [memtier, canonical],
  origin: 'local',
  measured_at: '2026-11-24T01:00:00Z',
  host: 'Test CPU, 2 cores',
  commit: 'abc1234',
}
