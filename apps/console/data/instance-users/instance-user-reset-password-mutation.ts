import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import { instanceUsersPath } from './instance-users-query'

export async function resetInstanceUserPassword(project: string, id: string, username: string) {
  return apiRequest<{ password: string }>('POST', `${instanceUsersPath(project, id)}/${seg(username)}/reset-password`)
}

export function useInstanceUserResetPasswordMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => resetInstanceUserPassword(project, id, username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, id) }),
  })
}
