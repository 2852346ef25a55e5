import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import { instanceUsersPath } from './instance-users-query'

export async function deleteInstanceUser(project: string, id: string, username: string) {
  return apiRequest<unknown>('DELETE', `${instanceUsersPath(project, id)}/${seg(username)}`)
}

export function useInstanceUserDeleteMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => deleteInstanceUser(project, id, username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, id) }),
  })
}
