import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'

export async function revokeApiKey(id: string) {
  return apiRequest<unknown>('DELETE', `/v1/api-keys/${seg(id)}`)
}

export function useApiKeyRevokeMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  })
}
