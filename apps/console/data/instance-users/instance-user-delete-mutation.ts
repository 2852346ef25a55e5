import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function deleteInstanceUser(project: string, instance: string, username: string) {
  return unwrap(
    api.DELETE('/v1/projects/{project}/instances/{instance}/users/{username}', {
      params: { path: { project, instance, username } },
    }),
  )
}

export function useInstanceUserDeleteMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => deleteInstanceUser(project, instance, username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, instance) }),
  })
}
