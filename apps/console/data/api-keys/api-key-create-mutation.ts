import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

/** The new key's record and its secret, which the API returns only in this answer. */
export type ApiKeyCreateResult = Schemas['CreatedApiKeyDto']

export async function createApiKey(body: { name: string }) {
  return unwrap(api.POST('/v1/api-keys', { body }))
}

export function useApiKeyCreateMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  })
}
