import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** Ends the rotation window: the previous password stops working now. */
export async function revokeOldInstanceUserPassword(project: string, instance: string, username: string) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/users/{username}/revoke-old-password', {
      params: { path: { project, instance, username } },
    }),
  )
}

export function useInstanceUserRevokeOldPasswordMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => revokeOldInstanceUserPassword(project, instance, username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, instance) }),
  })
}
