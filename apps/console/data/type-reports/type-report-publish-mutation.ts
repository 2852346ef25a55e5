import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type PublishReportRequest = Schemas['CreateTypeReportDto']

/** `POST /v1/instance-types/{id}/benchmarks` (admins): a report of the type on a temporary instance. */
export async function publishTypeReport(type: string, body: PublishReportRequest) {
  return unwrap(api.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: type } }, body }))
}

export function useTypeReportPublishMutation(type: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: PublishReportRequest) => publishTypeReport(type, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.typeReports.all(type) }),
  })
}
