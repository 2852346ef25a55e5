import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type BenchmarkRequest = Schemas['CreateBenchmarkDto']
export type BenchmarkSuite = BenchmarkRequest['workload']

/** The suites the worker's benchmark job runs. */
export const BENCHMARK_SUITES: { value: BenchmarkSuite; label: string }[] = [
  { value: 'memtier-standard', label: 'memtier-standard (shortened: 128 B and 4 KB; write, read, mixed pipelined)' },
  { value: 'ycsb-standard', label: 'ycsb-standard (YCSB load, uniform/zipfian read, 50/50 update; memory:data 7:1 and 1:4)' },
  { value: 'canonical', label: "canonical (RethinkDB's mixed memcached workload; not on TLS instances)" },
  { value: 'encryption-overhead', label: 'encryption-overhead (mixed 1:1 on engines without encryption, with TLS, at rest, both; overhead in %)' },
  { value: 'memtier-matrix', label: "memtier-matrix (the papers' 48 rows: 128 B-16 KB, ping-pong and pipeline 32, write/read/mixed, two connection levels; ~20 min)" },
  { value: 'canonical-tables', label: "canonical-tables (RethinkDB's select, insert, low memory, 16-1,024 connections, 4-64 KB values; not on TLS instances)" },
  { value: 'canonical-durability', label: 'canonical-durability (the canonical mix over RESP at appendfsync always and everysec)' },
  { value: 'custom', label: 'custom (your basalt-bench / memtier_benchmark flags)' },
]

export async function runBenchmark(project: string, instance: string, body: BenchmarkRequest) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/benchmarks', {
      params: { path: { project, instance } },
      body,
    }),
  )
}

export function useBenchmarkRunMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: BenchmarkRequest) => runBenchmark(project, instance, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.benchmarks(project, instance) })
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.operations(project, instance) })
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.detail(project, instance) })
    },
  })
}
