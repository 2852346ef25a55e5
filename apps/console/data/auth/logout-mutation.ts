import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'

export async function logout() {
  return unwrap(api.POST('/v1/auth/logout'))
}

export function useLogoutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSettled: () => queryClient.clear(),
  })
}
