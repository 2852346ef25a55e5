import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'
import { TRANSITIONAL_STATUSES } from './instance-query'

/** The newest 200 instances of a project (the list filters them further in the page). */
export async function getInstances(project: string, signal?: AbortSignal) {
  const page = await unwrap(
    api.GET('/v1/projects/{project}/instances', { params: { path: { project }, query: { limit: 200 } }, signal }),
  )
  return page.items
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
