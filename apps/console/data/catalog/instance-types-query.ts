import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

/** Ops/s per YCSB workload from the published white paper for this size. */
export interface WorkloadQps {
  load: number
  uniform_read: number
  zipfian_read: number
  uniform_50_read_50_update: number
}

export interface ReferenceQps {
  source: string
  memory_larger_than_data: WorkloadQps
  data_larger_than_memory: WorkloadQps
}

export interface InstanceType {
  id: string
  size: string
  vcpu: number
  memory_gib: number
  disk_gib_min: number
  disk_gib_max: number
  max_connections: number
  bandwidth_mbps: number
  regions: string[]
  reference_qps: ReferenceQps | null
}

export async function getInstanceTypes(signal?: AbortSignal) {
  return (await apiRequest<Page<InstanceType>>('GET', '/v1/instance-types', { signal })).items
}

export function useInstanceTypesQuery() {
  return useQuery({
    queryKey: queryKeys.instanceTypes(),
    queryFn: ({ signal }) => getInstanceTypes(signal),
    staleTime: 5 * 60_000,
  })
}
