import { useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'
import { loginHeaders, type DatabaseLogin } from './credentials'

export type DataValue = Schemas['DataValueDto']
export type ShownText = Schemas['ShownTextDto']

export async function getDataValue(project: string, instance: string, login: DatabaseLogin, key: string, cursor?: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/data/value', {
      params: { path: { project, instance }, header: loginHeaders(login), query: { key, ...(cursor ? { cursor } : {}) } },
      signal,
    }),
  )
}

/** A key's value, one page at a time (fields, elements, entries); "Load more" asks for the next. */
export function useDataValueQuery(project: string, instance: string, login: DatabaseLogin, key: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.instances.dataValue(project, instance, login.username, key),
    queryFn: ({ pageParam, signal }) => getDataValue(project, instance, login, key, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    retry: false,
  })
}
