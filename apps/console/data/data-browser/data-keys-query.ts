import { useInfiniteQuery } from '@tanstack/react-query'
import type { DataKeyType } from '@basalt/api-client/rules'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'
import { loginHeaders, type DatabaseLogin } from './credentials'

export type DataKey = Schemas['DataKeyDto']

export interface DataKeysFilter {
  match: string
  type: DataKeyType | ''
}

export async function listDataKeys(project: string, instance: string, login: DatabaseLogin, filter: DataKeysFilter, cursor: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/data/keys', {
      params: {
        path: { project, instance },
        header: loginHeaders(login),
        query: { cursor, ...(filter.match ? { match: filter.match } : {}), ...(filter.type ? { type: filter.type } : {}) },
      },
      signal,
    }),
  )
}

/** Pages of keys by SCAN cursor: the next page only when asked for ("Load more"). */
export function useDataKeysQuery(project: string, instance: string, login: DatabaseLogin, filter: DataKeysFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.instances.dataKeys(project, instance, login.username, filter.match, filter.type),
    queryFn: ({ pageParam, signal }) => listDataKeys(project, instance, login, filter, pageParam, signal),
    initialPageParam: '0',
    getNextPageParam: (last) => (last.cursor === '0' ? undefined : last.cursor),
    retry: false,
  })
}
