import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'

export interface LoginVariables {
  email: string
  password: string
}

export async function login(variables: LoginVariables) {
  return apiRequest<unknown>('POST', '/v1/auth/login', { body: variables })
}

export function useLoginMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.clear(),
  })
}
