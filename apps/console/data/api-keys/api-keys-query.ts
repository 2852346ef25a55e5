import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type ApiKey = Schemas['ApiKeyDto']

export async function getApiKeys(signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/api-keys', { signal }))).items
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: queryKeys.apiKeys(), queryFn: ({ signal }) => getApiKeys(signal) })
}
