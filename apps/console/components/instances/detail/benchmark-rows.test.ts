import { describe, expect, it } from 'vitest'
import { benchmarkRows } from './benchmark-rows'

describe('benchmarkRows', () => {
  it('reads memtier-style rows', () => {
    const rows = benchmarkRows({
      workload: 'set-get',
      results: { rows: [{ label: 'Sets', ops_per_sec: 12000.5, p50_ms: 0.3, p99_ms: 1.1 }, { type: 'Gets', qps: '30000' }] },
    })
    expect(rows).toEqual([
      { label: 'Sets', opsPerSec: 12000.5, p50Ms: 0.3, p99Ms: 1.1 },
      { label: 'Gets', opsPerSec: 30000, p50Ms: undefined, p99Ms: undefined },
    ])
  })

  it('reads a single summary object and tolerates missing results', () => {
    expect(benchmarkRows({ workload: 'ycsb-a', results: { throughput: 900, p99_latency_ms: 4 } })).toEqual([
      { label: 'ycsb-a', opsPerSec: 900, p50Ms: undefined, p99Ms: 4 },
    ])
    expect(benchmarkRows({ workload: 'x', results: null })).toEqual([])
  })
})
