import { useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** `GET /v1/operations/{id}`: the operation with its steps and progress as the worker last saved them. */
export async function getOperation(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/operations/{id}', { params: { path: { id } }, signal }))
}

/** One operation by id, e.g. a per-type report's (it belongs to no instance). */
export function useOperationQuery(id: string | null) {
  return useQuery({
    queryKey: queryKeys.operation(id ?? ''),
    queryFn: ({ signal }) => getOperation(id!, signal),
    enabled: id !== null,
  })
}
