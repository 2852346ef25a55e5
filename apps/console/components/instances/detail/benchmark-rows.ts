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

export function benchmarkRows(benchmark: Pick<Benchmark, 'results' | 'workload'>): BenchmarkRow[] {
  const results = benchmark.results
  const raw: BenchmarkResultRow[] = Array.isArray(results)
    ? results
    : Array.isArray(results?.rows)
      ? results.rows
      : results && typeof results === 'object'
        ? [{ label: benchmark.workload, ...results }]
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
