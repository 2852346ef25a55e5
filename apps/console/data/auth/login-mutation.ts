import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'

export interface LoginVariables {
  email: string
  password: string
}

export async function login(variables: LoginVariables) {
  return unwrap(api.POST('/v1/auth/login', { body: variables }))
}

export function useLoginMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.clear(),
  })
}
