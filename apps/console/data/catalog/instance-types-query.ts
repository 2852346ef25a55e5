import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import { itemsOf, type Page } from '../page'

export interface InstanceType {
  id: string
  size?: string
  vcpu: number
  memory_gib: number
  disk_gib_min: number
  disk_gib_max: number
  max_connections: number
  bandwidth_mbps: number
  regions: string[]
  reference_qps?: Record<string, number> | number | null
}

export async function getInstanceTypes(signal?: AbortSignal) {
  return itemsOf(await apiRequest<Page<InstanceType> | InstanceType[]>('GET', '/v1/instance-types', { signal }))
}

export function useInstanceTypesQuery() {
  return useQuery({
    queryKey: queryKeys.instanceTypes(),
    queryFn: ({ signal }) => getInstanceTypes(signal),
    staleTime: 5 * 60_000,
  })
}
