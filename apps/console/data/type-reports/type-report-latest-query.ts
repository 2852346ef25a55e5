import { useQuery } from '@tanstack/react-query'
import { api, ApiError, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** `GET /v1/instance-types/{id}/benchmarks/latest`: the newest succeeded report, or null when the type has none. */
export async function getLatestTypeReport(type: string, signal?: AbortSignal) {
  try {
    return (await unwrap(api.GET('/v1/instance-types/{id}/benchmarks/latest', { params: { path: { id: type } }, signal }))).report
  } catch (error) {
    if (error instanceof ApiError && error.code === 'no_report') return null
    throw error
  }
}

export function useLatestTypeReportQuery(type: string) {
  return useQuery({ queryKey: queryKeys.typeReports.latest(type), queryFn: ({ signal }) => getLatestTypeReport(type, signal), retry: false })
}
