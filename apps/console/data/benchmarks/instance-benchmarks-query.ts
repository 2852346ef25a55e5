import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

/** One row of a benchmark's result table, as memtier_benchmark and YCSB report it. */
export interface BenchmarkResultRow {
  label?: string
  workload?: string
  ops_per_sec?: number | string
  qps?: number | string
  p50_ms?: number | string
  p99_ms?: number | string
  p999_ms?: number | string
  avg_latency_ms?: number | string
  [key: string]: unknown
}

export interface Benchmark {
  id: string
  status: 'pending' | 'running' | 'succeeded' | 'failed'
  tool: string
  workload: string
  instance_type?: string
  parameters?: Record<string, unknown>
  results?: { rows?: BenchmarkResultRow[]; command?: string; [key: string]: unknown } | BenchmarkResultRow[] | null
  created_at: string
  finished_at?: string | null
}

export async function getInstanceBenchmarks(project: string, id: string, signal?: AbortSignal) {
  const body = await apiRequest<Page<Benchmark>>(
    'GET',
    `/v1/projects/${seg(project)}/instances/${seg(id)}/benchmarks`,
    { signal },
  )
  return body.items
}

export function useInstanceBenchmarksQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.benchmarks(project, id),
    queryFn: ({ signal }) => getInstanceBenchmarks(project, id, signal),
  })
}
