import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'

export async function logout() {
  return unwrap(api.POST('/v1/auth/logout'))
}

export function useLogoutMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: logout,
    // Stop every query first, so none refetches into a 401 while the page leaves.
    onMutate: () => queryClient.cancelQueries(),
  })
}
