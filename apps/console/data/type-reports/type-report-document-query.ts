import { useQuery } from '@tanstack/react-query'
import type { TypeReportDocument } from '@basalt/api-client/rules'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** `GET /v1/instance-types/{id}/benchmarks/{report}/report.json`: the report's document (a published report's figures are there, not in runs). */
export async function getTypeReportDocument(type: string, report: string, signal?: AbortSignal): Promise<TypeReportDocument> {
  const body = await unwrap(api.GET('/v1/instance-types/{id}/benchmarks/{report}/report.json', { params: { path: { id: type, report } }, signal }))
  return body as unknown as TypeReportDocument
}

export function useTypeReportDocumentQuery(type: string, report: string, enabled: boolean) {
  // A report's document never changes once made.
  return useQuery({ queryKey: queryKeys.typeReports.document(type, report), queryFn: ({ signal }) => getTypeReportDocument(type, report, signal), enabled, staleTime: Infinity })
}
