import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

export interface Region {
  id: string
  name: string
  target?: string
  available?: boolean
}

export async function getRegions(signal?: AbortSignal) {
  return (await apiRequest<Page<Region>>('GET', '/v1/regions', { signal })).items
}

export function useRegionsQuery() {
  return useQuery({ queryKey: queryKeys.regions(), queryFn: ({ signal }) => getRegions(signal), staleTime: 5 * 60_000 })
}
