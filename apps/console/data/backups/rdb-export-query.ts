import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type RdbExport = Schemas['RdbExportDto']

/** How often an unfinished export is read again. */
const EXPORT_REFRESH_MS = 2_000

export async function getRdbExport(project: string, id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/projects/{project}/exports/{export}', { params: { path: { project, export: id } }, signal }))
}

/** Where the browser downloads a succeeded export: the same-origin proxy, with the session cookie. */
export function rdbExportDownloadUrl(project: string, id: string): string {
  return `/v1/projects/${encodeURIComponent(project)}/exports/${encodeURIComponent(id)}/download`
}

export function useRdbExportQuery(project: string, id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.rdbExport(project, id ?? ''),
    queryFn: ({ signal }) => getRdbExport(project, id!, signal),
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.status === 'pending' || query.state.data?.status === 'running' ? EXPORT_REFRESH_MS : false),
  })
}
