// Benchmark results come from memtier_benchmark-style and YCSB-style runs; this reads either
// into one row shape for the table and the chart.
import type { Benchmark } from '@/data/benchmarks/instance-benchmarks-query'

/** One row of a result table as memtier_benchmark- or YCSB-style reports put it. */
type BenchmarkResultRow = Record<string, unknown>

export interface BenchmarkRow {
  label: string
  opsPerSec: number | undefined
  p50Ms: number | undefined
  p99Ms: number | undefined
}

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined

function firstNumber(row: BenchmarkResultRow, keys: string[]): number | undefined {
  for (const key of keys) {
    const value = num(row[key])
    if (value !== undefined) return value
  }
  return undefined
}

/** memtier_benchmark's (and basalt-bench's, for YCSB too) JSON: {"ALL STATS": {"Sets": {...}, "Totals": {...}}}. */
/** memtier's table order; PostgreSQL's jsonb does not keep the order keys were written in. */
const MEMTIER_ORDER = ['Sets', 'Gets', 'Waits', 'Totals']
const memtierRank = (label: string) => (MEMTIER_ORDER.includes(label) ? MEMTIER_ORDER.indexOf(label) : MEMTIER_ORDER.length - 1.5)

function memtierRows(allStats: Record<string, unknown>): BenchmarkRow[] {
  return Object.entries(allStats)
    .sort(([a], [b]) => memtierRank(a) - memtierRank(b))
    .filter(([, block]) => typeof block === 'object' && block !== null && 'Ops/sec' in block)
    // memtier's WAIT row is empty unless the run used WAIT.
    .filter(([label, block]) => !(label === 'Waits' && !num((block as Record<string, unknown>)['Ops/sec'])))
    .map(([label, block]) => {
      const op = block as Record<string, unknown>
      const pct = (typeof op['Percentile Latencies'] === 'object' && op['Percentile Latencies'] !== null
        ? op['Percentile Latencies']
        : op) as Record<string, unknown>
      return { label, opsPerSec: num(op['Ops/sec']), p50Ms: num(pct['p50.00']), p99Ms: num(pct['p99.00']) }
    })
}

export function benchmarkRows(benchmark: Pick<Benchmark, 'results' | 'workload'>): BenchmarkRow[] {
  const results = benchmark.results as unknown
  if (results && typeof results === 'object' && !Array.isArray(results)) {
    const allStats = (results as Record<string, unknown>)['ALL STATS']
    if (allStats && typeof allStats === 'object') return memtierRows(allStats as Record<string, unknown>)
  }
  const raw: BenchmarkResultRow[] = Array.isArray(results)
    ? results
    : results && typeof results === 'object' && Array.isArray((results as { rows?: unknown }).rows)
      ? (results as { rows: BenchmarkResultRow[] }).rows
      : results && typeof results === 'object'
        ? [{ label: benchmark.workload, ...(results as BenchmarkResultRow) }]
        : []
  return raw.map((row, i) => ({
    label: String(row.label ?? row.workload ?? row.type ?? row.command ?? `row ${i + 1}`),
    opsPerSec: firstNumber(row, ['ops_per_sec', 'qps', 'throughput', 'ops']),
    p50Ms: firstNumber(row, ['p50_ms', 'p50_latency_ms', 'p50']),
    p99Ms: firstNumber(row, ['p99_ms', 'p99_latency_ms', 'p99']),
  }))
}

/** Animations make charts flicker in screenshots and slow tests; browsers driven by tools say so. */
export function chartAnimationEnabled(): boolean {
  if (process.env.NODE_ENV === 'test') return false
  return typeof navigator === 'undefined' ? false : !navigator.webdriver
}
