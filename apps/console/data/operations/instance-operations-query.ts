import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'
import type { Operation } from './operation-types'

export async function getInstanceOperations(project: string, id: string, signal?: AbortSignal) {
  const body = await apiRequest<Page<Operation>>(
    'GET',
    `/v1/projects/${seg(project)}/instances/${seg(id)}/operations`,
    { signal },
  )
  return body.items
}

export function useInstanceOperationsQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.operations(project, id),
    queryFn: ({ signal }) => getInstanceOperations(project, id, signal),
    refetchInterval: (query) =>
      query.state.data?.some((op) => op.status === 'pending' || op.status === 'running') ? 5_000 : false,
  })
}
