import { describe, expect, it } from 'vitest'
import { benchmarkRows } from './benchmark-rows'

describe('benchmarkRows', () => {
  it('reads the memtier JSON document basalt-bench writes, in memtier\'s row order', () => {
    const rows = benchmarkRows({
      workload: 'memtier-default',
      results: {
        'ALL STATS': {
          Runtime: { 'Total duration': 60000 },
          Gets: { 'Ops/sec': 150210.1, 'Percentile Latencies': { 'p50.00': 0.3, 'p99.00': 0.9 } },
          Sets: { 'Ops/sec': 15020.5, 'Average Latency': 0.4, 'Percentile Latencies': { 'p50.00': 0.351, 'p99.00': 1.2, 'p99.90': 2.5 } },
          Waits: { 'Ops/sec': 0, 'Percentile Latencies': {} },
          Totals: { 'Ops/sec': 165230.6, 'Percentile Latencies': { 'p50.00': 0.31, 'p99.00': 1.0 } },
        },
      },
    })
    expect(rows).toEqual([
      { label: 'Sets', opsPerSec: 15020.5, p50Ms: 0.351, p99Ms: 1.2 },
      { label: 'Gets', opsPerSec: 150210.1, p50Ms: 0.3, p99Ms: 0.9 },
      { label: 'Totals', opsPerSec: 165230.6, p50Ms: 0.31, p99Ms: 1.0 },
    ])
  })

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
