import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** `GET /v1/instance-types/{id}/benchmarks`: every report of the type, newest first (runs without their scenarios' JSON). */
export async function getTypeReports(type: string, signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/instance-types/{id}/benchmarks', { params: { path: { id: type } }, signal }))).items
}

/** Polls every 2 s while a report is pending or running, so its suites' progress shows. */
export function useTypeReportsQuery(type: string) {
  return useQuery({
    queryKey: queryKeys.typeReports.list(type),
    queryFn: ({ signal }) => getTypeReports(type, signal),
    refetchInterval: (query) => (query.state.data?.some((r) => r.status === 'pending' || r.status === 'running') ? 2_000 : false),
  })
}
