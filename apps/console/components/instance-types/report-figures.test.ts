import { describe, expect, it } from 'vitest'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { commandGroups } from '@/components/benchmarks/benchmark-rows'
import { memtier, report } from './report-fixture'
import { catalogFigures, headlineFigures, reportInProgress, reportMarkdownUrl, reportSuites } from './report-figures'

describe('catalogFigures', () => {
  const reference = { report_id: 'report-1', published_at: '2026-11-24T01:05:00Z', measured_at: '2026-11-24T01:00:00Z', host: 'AMD EPYC, 2 cores', commit: 'bfed113', reads_per_sec: 40_000, writes_per_sec: 30_000.5, p99_latency_ms: 1.5 }

  it("shows a report made on this install as Basalt's, with the date it finished, and nothing for a type without a report", () => {
    expect(catalogFigures({ reference: { ...reference, origin: 'local' } })).toEqual({ readsPerSec: '40,000', writesPerSec: '30,000.5', p99Ms: '1.5', provenance: 'Basalt, 24 Nov 2026, 01:05 UTC' })
    expect(catalogFigures({ reference: null })).toBeNull()
  })

  it('labels a published report with the date, host and commit it was measured on', () => {
    expect(catalogFigures({ reference: { ...reference, origin: 'published' } })!.provenance).toBe('published report, measured 24 Nov 2026, 01:00 UTC on AMD EPYC, 2 cores, commit bfed113')
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
    expect(commandGroups(m!.run).map((g) => [g.label, g.lines.length])).toEqual([
      ['memtier_benchmark commands', 6],
      ['basalt-bench commands (as run)', 6],
      ['basalt-bench commands against the peer (Redis 7.0.15)', 6],
    ])
    expect(commandGroups(m!.run)[2]!.lines[0]).toBe('basalt-bench --server=10.77.255.2 --scenario=1')
    expect(m!.run).toBe(memtier)
  })

  it('gives a run without scenarios yet no rows, no charts to draw and no commands', () => {
    const [empty] = reportSuites({ runs: [{ ...memtier, status: 'pending', scenarios: [] }] })
    expect(empty).toMatchObject({ rows: [], qpsBySize: null })
    expect(commandGroups(empty!.run)).toEqual([])
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
