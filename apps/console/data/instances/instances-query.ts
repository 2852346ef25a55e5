import { useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'
import { TRANSITIONAL_STATUSES, type Instance } from './instance-query'

export const INSTANCES_PAGE_SIZE = 50

export interface InstancesFilter {
  /** Case-insensitive substring of the name, matched by the API. */
  name?: string
}

/** One page of a project's instances, newest first; `next_cursor` fetches the next. */
export async function getInstancesPage(project: string, filter: InstancesFilter, cursor?: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances', {
      params: {
        path: { project },
        query: { limit: INSTANCES_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...(filter.name ? { name: filter.name } : {}) },
      },
      signal,
    }),
  )
}

export function useInstancesQuery(project: string, filter: InstancesFilter = {}) {
  return useInfiniteQuery({
    queryKey: [...queryKeys.instances.list(project), filter] as const,
    queryFn: ({ pageParam, signal }) => getInstancesPage(project, filter, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    select: (data) => data.pages.flatMap((page) => page.items) as Instance[],
    // Keep the list live while anything is being created, changed or deleted.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((i) => TRANSITIONAL_STATUSES.has(i.status))) ? 5_000 : false,
  })
}
