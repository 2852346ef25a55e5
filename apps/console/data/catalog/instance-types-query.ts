import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

/** A size from the catalog: vCPU, memory, disk range and limits. */
export type InstanceType = Schemas['InstanceTypeDto']

export async function getInstanceTypes(signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/instance-types', { signal }))).items
}

export function useInstanceTypesQuery() {
  return useQuery({
    queryKey: queryKeys.instanceTypes(),
    queryFn: ({ signal }) => getInstanceTypes(signal),
    staleTime: 5 * 60_000,
  })
}
