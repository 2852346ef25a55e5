import { useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type AuditEntry = Schemas['AuditEntryDto']

/** One page of a project's audit log, newest first. */
export async function getAuditLogPage(project: string, cursor?: number, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/audit-log', {
      params: { path: { project }, query: { limit: 100, ...(cursor !== undefined ? { cursor } : {}) } },
      signal,
    }),
  )
}

export function useAuditLogQuery(project: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.auditLog(project),
    queryFn: ({ pageParam, signal }) => getAuditLogPage(project, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.next_cursor ? Number(last.next_cursor) : undefined),
    select: (data) => data.pages.flatMap((page) => page.items),
  })
}
