import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** The newest operations of an instance first. */
export async function getInstanceOperations(project: string, instance: string, signal?: AbortSignal) {
  const page = await unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/operations', {
      params: { path: { project, instance }, query: { limit: 50 } },
      signal,
    }),
  )
  return page.items
}

export function useInstanceOperationsQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.operations(project, instance),
    queryFn: ({ signal }) => getInstanceOperations(project, instance, signal),
    refetchInterval: (query) =>
      query.state.data?.some((op) => op.status === 'pending' || op.status === 'running') ? 5_000 : false,
  })
}
