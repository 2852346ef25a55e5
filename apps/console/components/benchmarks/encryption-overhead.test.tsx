import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { BENCHMARK_SUITES as API_SUITES } from '@basalt/api-client/rules'
import { BENCHMARK_SUITES } from '@/data/benchmarks/benchmark-run-mutation'
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import { EncryptionOverheadTable, encryptionOverheadChart, encryptionOverheadLines } from './encryption-overhead'

type Scenario = Benchmark['scenarios'][number]

// A row as the worker stores one measured in rounds: its figure the median round's, every round's ops/s beside it.
const scenario = (position: number, value_size: number, tls: boolean, at_rest: boolean, rounds: number[]): Scenario => ({
  position,
  name: `mixed 1:1 ${value_size} B, ping-pong`,
  server: 'basalt',
  tool: 'basalt-bench 0.1.0',
  command_line: 'basalt-bench --server=10.77.255.3 --port=6379',
  memtier_command: null,
  ycsb_command: null,
  workload: 'mixed-1:1',
  value_size,
  connections: 8,
  pipeline: 1,
  requests: 24000,
  qps: [...rounds].sort((a, b) => a - b)[Math.floor((rounds.length - 1) / 2)]!,
  avg_latency_ms: 0.5,
  p50_latency_ms: 0.4,
  p99_latency_ms: 2.5,
  p999_latency_ms: 4,
  errors: 0,
  engine_version: '0.1.0',
  instance_type: 'kv.standard.small',
  started_at: '2026-11-24T05:00:00Z',
  finished_at: '2026-11-24T05:00:02Z',
  encryption: { tls, at_rest },
  round_ops_per_sec: rounds.length > 1 ? rounds : null,
})

// 128 B in three rounds (the medians: 10 000, 8 000, 10 100, 7 500; one burst in each of two
// rounds moves nothing), 4 KB in one.
const run = {
  scenarios: [
    scenario(1, 128, false, false, [10000, 4000, 10500]),
    scenario(2, 128, true, false, [8000, 8100, 7900]),
    scenario(3, 128, false, true, [10100, 10200, 3000]),
    scenario(4, 128, true, true, [7500, 7400, 7600]),
    scenario(5, 4096, false, false, [5000]),
    scenario(6, 4096, true, false, [4000]),
  ],
}

describe('encryption overhead', () => {
  it('each encryption against the engine without it, same value size, computed from the stored ops/s', () => {
    expect(encryptionOverheadLines(run).map((l) => [l.valueSize, l.encryption, l.runs, l.baselineOpsPerSec, l.opsPerSec, l.range, l.overhead])).toEqual([
      ['128 B', 'no encryption', 3, '10,000', '10,000', '4,000–10,500', '—'],
      ['128 B', 'TLS', 3, '10,000', '8,000', '7,900–8,100', '+20.0%'],
      ['128 B', 'encryption at rest', 3, '10,000', '10,100', '3,000–10,200', '−1.0%'],
      ['128 B', 'TLS and encryption at rest', 3, '10,000', '7,500', '7,400–7,600', '+25.0%'],
      ['4 KB', 'no encryption', 1, '5,000', '5,000', '5,000–5,000', '—'],
      ['4 KB', 'TLS', 1, '5,000', '4,000', '4,000–4,000', '+20.0%'],
    ])
  })

  it('charts the medians: per value size, one bar per variant (none where a variant did not run)', () => {
    expect(encryptionOverheadChart(run)).toEqual({
      series: [
        { key: 'v0', name: 'no encryption' },
        { key: 'v1', name: 'TLS' },
        { key: 'v2', name: 'encryption at rest' },
        { key: 'v3', name: 'TLS and encryption at rest' },
      ],
      data: [
        { label: '128 B', v0: 10000, v1: 8000, v2: 10100, v3: 7500 },
        { label: '4 KB', v0: 5000, v1: 4000, v2: null, v3: null },
      ],
    })
  })

  it('renders the table people read', () => {
    render(<EncryptionOverheadTable benchmark={run} />)
    const rows = within(screen.getByRole('table', { name: 'Encryption overhead' })).getAllByRole('row')
    expect(rows).toHaveLength(7)
    expect(within(rows[2]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['128 B', 'TLS', '3', '10,000', '8,000', '7,900–8,100', '+20.0%', '2.5'])
  })

  it('the suite picker offers every suite the API runs, encryption-overhead among them', () => {
    expect(BENCHMARK_SUITES.map((s) => s.value).sort()).toEqual([...API_SUITES].sort())
    expect(BENCHMARK_SUITES.find((s) => s.value === 'encryption-overhead')?.label).toMatch(/TLS, at rest, both; overhead in %/)
  })
})
