import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type BenchmarkWorkload = Schemas['CreateBenchmarkDto']['workload']

/** The published method's workloads, in the order a report lists them. */
export const BENCHMARK_WORKLOADS: { value: BenchmarkWorkload; label: string }[] = [
  { value: 'memtier-default', label: 'memtier_benchmark, default 1:10 set/get mix' },
  { value: 'ycsb-load', label: 'YCSB load' },
  { value: 'ycsb-uniform-read', label: 'YCSB uniform read' },
  { value: 'ycsb-zipfian-read', label: 'YCSB zipfian read' },
  { value: 'ycsb-uniform-50-50', label: 'YCSB uniform 50% read / 50% update' },
]

export async function runBenchmark(project: string, instance: string, workload: BenchmarkWorkload) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/benchmarks', {
      params: { path: { project, instance } },
      body: { workload },
    }),
  )
}

export function useBenchmarkRunMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (workload: BenchmarkWorkload) => runBenchmark(project, instance, workload),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.benchmarks(project, instance) })
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.operations(project, instance) })
    },
  })
}
