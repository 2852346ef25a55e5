import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { ApiKey } from './api-keys-query'

/** The new key's record and its secret, which the API returns only in this answer. */
export interface ApiKeyCreateResult {
  api_key: ApiKey
  key: string
}

export async function createApiKey(variables: { name: string }) {
  return apiRequest<ApiKeyCreateResult>('POST', '/v1/api-keys', { body: variables })
}

export function useApiKeyCreateMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  })
}
