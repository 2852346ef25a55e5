import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'

export async function logout() {
  return apiRequest<unknown>('POST', '/v1/auth/logout')
}

export function useLogoutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSettled: () => queryClient.clear(),
  })
}
