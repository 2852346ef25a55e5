import { useQuery } from '@tanstack/react-query'
import { METRICS_REFRESH_MS } from '@basalt/api-client/rules'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type SlowlogEntry = Schemas['SlowlogEntryDto']

export async function getInstanceSlowlog(project: string, instance: string, signal?: AbortSignal) {
  const body = await unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/slowlog', { params: { path: { project, instance }, query: { count: 50 } }, signal }),
  )
  return body.items
}

export function useInstanceSlowlogQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.slowlog(project, instance),
    queryFn: ({ signal }) => getInstanceSlowlog(project, instance, signal),
    refetchInterval: METRICS_REFRESH_MS,
    retry: false,
  })
}
