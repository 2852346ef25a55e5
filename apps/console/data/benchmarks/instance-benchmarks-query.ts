import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type Benchmark = Schemas['BenchmarkDto']

export async function getInstanceBenchmarks(project: string, instance: string, signal?: AbortSignal) {
  const list = await unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/benchmarks', { params: { path: { project, instance } }, signal }),
  )
  return list.items
}

export function useInstanceBenchmarksQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.benchmarks(project, instance),
    queryFn: ({ signal }) => getInstanceBenchmarks(project, instance, signal),
    refetchInterval: (query) =>
      query.state.data?.some((b) => b.status === 'pending' || b.status === 'running') ? 2_000 : false,
  })
}
