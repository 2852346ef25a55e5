import { describe, expect, it } from 'vitest'
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { catalogFigures, headlineFigures, reportInProgress, reportMarkdownUrl, reportSuites } from './report-figures'

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
const memtier: Benchmark = {
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
const canonical: Benchmark = {
  ...memtier,
  id: 'run-canonical',
  workload: 'canonical',
  scenarios: [
    scenario(1, 'basalt', { name: 'canonical', workload: 'canonical', value_size: null, qps: 50_000 }),
    scenario(1, 'memcached', { name: 'canonical', workload: 'canonical', value_size: null, qps: 60_000, engine_version: 'memcached 1.6.21' }),
  ],
}

const report: TypeReport = {
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
}

describe('catalogFigures', () => {
  it("shows Basalt's own report figures with the report's date, and nothing for a type without a report", () => {
    expect(catalogFigures({ id: 'kv.standard.small', reference: { report_id: 'report-1', published_at: '2026-11-24T01:05:00Z', reads_per_sec: 40_000, writes_per_sec: 30_000.5, p99_latency_ms: 1.5 } })).toEqual({
      readsPerSec: '40,000',
      writesPerSec: '30,000.5',
      p99Ms: '1.5',
      publishedAt: '24 Nov 2026, 01:05 UTC',
    })
    expect(catalogFigures({ id: 'kv.standard.small', reference: null })).toBeNull()
    expect(catalogFigures({ id: 'kv.standard.small' })).toBeNull()
  })
})

describe('headlineFigures', () => {
  it("labels the API's headline figures, and has none before the report succeeded", () => {
    expect(headlineFigures(report).map((f) => f.value)).toEqual(['40,000', '30,000', '1.5', '1.23×'])
    expect(headlineFigures({ headline: { ...report.headline!, peer_ratio: null } })[3]!.value).toBe('—')
    expect(headlineFigures({ headline: null })).toEqual([])
  })
})

describe('reportSuites', () => {
  const [m, c] = reportSuites(report)

  it('charts QPS by value size, one bar per workload at its pipeline depth (Basalt)', () => {
    expect(m!.qpsBySize).toEqual({
      series: [
        { key: 's0', name: 'write-only, ping-pong' },
        { key: 's1', name: 'read-only, ping-pong' },
        { key: 's2', name: 'mixed-1:1, pipeline 32' },
      ],
      data: [
        { label: '128 B', s0: 30_000, s1: 40_000, s2: 200_000 },
        { label: '4 KB', s0: 20_000, s1: 25_000, s2: 90_000 },
      ],
    })
    // One value size (or sizes that vary) leaves nothing to compare.
    expect(c!.qpsBySize).toBeNull()
  })

  it('charts Basalt beside its peer, ops/s and p99, per scenario', () => {
    expect(m!.throughput.series).toEqual([{ key: 'basalt', name: 'Basalt' }, { key: 'peer', name: 'Redis 7.0.15' }])
    expect(m!.throughput.data[2]).toEqual({ label: 'mixed-1:1 128', basalt: 200_000, peer: 160_000 })
    expect(m!.latency.data[2]).toEqual({ label: 'mixed-1:1 128', basalt: 4, peer: 5 })
    expect(c!.throughput.data).toEqual([{ label: 'canonical', basalt: 50_000, peer: 60_000 }])
    expect(c!.throughput.series[1]).toEqual({ key: 'peer', name: 'memcached 1.6.21' })
  })

  it("keeps the table rows and every command line the run stored, the peer's as well", () => {
    expect(m!.rows).toHaveLength(6)
    expect(m!.rows[0]!.peer).toMatchObject({ opsPerSec: 20_000, ratio: 1.5 })
    expect(m!.commands.map((g) => [g.label, g.lines.length])).toEqual([
      ['memtier_benchmark commands', 6],
      ['basalt-bench commands (as run)', 6],
      ['basalt-bench commands against the peer (Redis 7.0.15)', 6],
    ])
    expect(m!.commands[2]!.lines[0]).toBe('basalt-bench --server=10.77.255.2 --scenario=1')
    expect({ id: m!.id, suite: m!.suite, status: m!.status }).toEqual({ id: 'run-memtier', suite: 'memtier-standard', status: 'succeeded' })
  })

  it('gives a run without scenarios yet no rows, no charts to draw and no commands', () => {
    const [empty] = reportSuites({ runs: [{ ...memtier, status: 'pending', scenarios: [] }] })
    expect(empty).toMatchObject({ rows: [], qpsBySize: null, commands: [] })
    expect(empty!.throughput).toEqual({ data: [], series: [{ key: 'basalt', name: 'Basalt' }] })
  })
})

describe('reportInProgress', () => {
  const at = (id: string, status: TypeReport['status'], created_at: string) => ({ id, status, created_at })
  const published = at('r1', 'succeeded', '2026-11-24T01:00:00Z')

  it('follows a pending or running report', () => {
    expect(reportInProgress([at('r2', 'running', '2026-11-24T02:00:00Z'), published], published)).toMatchObject({ id: 'r2' })
    expect(reportInProgress([at('r2', 'pending', '2026-11-24T02:00:00Z')], null)).toMatchObject({ id: 'r2' })
  })

  it('shows a failed one newer than the published report, and nothing once a newer one succeeded', () => {
    expect(reportInProgress([at('r2', 'failed', '2026-11-24T02:00:00Z'), published], published)).toMatchObject({ id: 'r2', status: 'failed' })
    expect(reportInProgress([published, at('r0', 'failed', '2026-11-24T00:00:00Z')], published)).toBeNull()
    expect(reportInProgress([published], published)).toBeNull()
    expect(reportInProgress([], null)).toBeNull()
  })
})

describe('reportMarkdownUrl', () => {
  it("is the report's own white paper, through the console's /v1 proxy", () => {
    expect(reportMarkdownUrl('kv.standard.small', 'report-1')).toBe('/v1/instance-types/kv.standard.small/benchmarks/report-1/report.md')
  })
})
