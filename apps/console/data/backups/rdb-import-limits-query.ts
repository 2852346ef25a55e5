import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type RdbImportLimits = Schemas['RdbImportLimitsDto']

/** How large an upload may be; an error (404 not_configured) means the platform takes none. */
export async function getRdbImportLimits(project: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/projects/{project}/rdb-imports/limits', { params: { path: { project } }, signal }))
}

export function useRdbImportLimitsQuery(project: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.rdbImportLimits(project), queryFn: ({ signal }) => getRdbImportLimits(project, signal), enabled, retry: false })
}
