import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type Region = Schemas['RegionDto']

export async function getRegions(signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/regions', { signal }))).items
}

export function useRegionsQuery() {
  return useQuery({ queryKey: queryKeys.regions(), queryFn: ({ signal }) => getRegions(signal), staleTime: 5 * 60_000 })
}
