import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** A new generated password, returned once; the old one keeps working for a while (rotation). */
export async function resetInstanceUserPassword(project: string, instance: string, username: string) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', {
      params: { path: { project, instance, username } },
      body: {},
    }),
  )
}

export function useInstanceUserResetPasswordMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (username: string) => resetInstanceUserPassword(project, instance, username),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, instance) }),
  })
}
