import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'
import { TRANSITIONAL_STATUSES, type Instance } from './instance-query'

export async function getInstances(project: string, signal?: AbortSignal) {
  const body = await apiRequest<Page<Instance>>('GET', `/v1/projects/${seg(project)}/instances`, {
    signal,
    query: { limit: 100 },
  })
  return body.items
}

export function useInstancesQuery(project: string) {
  return useQuery({
    queryKey: queryKeys.instances.list(project),
    queryFn: ({ signal }) => getInstances(project, signal),
    // Keep the list live while anything is being created, changed or deleted.
    refetchInterval: (query) =>
      query.state.data?.some((instance) => TRANSITIONAL_STATUSES.has(instance.status)) ? 5_000 : false,
  })
}
