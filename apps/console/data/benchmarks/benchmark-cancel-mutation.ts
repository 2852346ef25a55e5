import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function cancelBenchmark(project: string, instance: string, benchmark: string) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}/cancel', {
      params: { path: { project, instance, benchmark } },
    }),
  )
}

export function useBenchmarkCancelMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (benchmark: string) => cancelBenchmark(project, instance, benchmark),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.instances.benchmarks(project, instance) }),
  })
}
