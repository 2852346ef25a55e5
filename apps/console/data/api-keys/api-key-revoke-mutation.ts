import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function revokeApiKey(id: string) {
  return unwrap(api.DELETE('/v1/api-keys/{id}', { params: { path: { id } } }))
}

export function useApiKeyRevokeMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  })
}
