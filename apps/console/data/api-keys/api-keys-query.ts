import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

export interface ApiKey {
  id: string
  name: string
  prefix: string
  created_at: string
  last_used_at?: string | null
  expires_at?: string | null
  revoked_at?: string | null
}

export async function getApiKeys(signal?: AbortSignal) {
  return (await apiRequest<Page<ApiKey>>('GET', '/v1/api-keys', { signal })).items
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: queryKeys.apiKeys(), queryFn: ({ signal }) => getApiKeys(signal) })
}
