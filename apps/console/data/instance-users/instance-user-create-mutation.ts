import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type InstanceUserCreateVariables = Schemas['CreateInstanceUserDto']

/** The new user, the operation applying it, and — only in this answer — its password. */
export type InstanceUserCreateResult = Schemas['InstanceUserWithPasswordDto']

export async function createInstanceUser(project: string, instance: string, body: InstanceUserCreateVariables) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/users', { params: { path: { project, instance } }, body }),
  )
}

export function useInstanceUserCreateMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceUserCreateVariables) => createInstanceUser(project, instance, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, instance) }),
  })
}
