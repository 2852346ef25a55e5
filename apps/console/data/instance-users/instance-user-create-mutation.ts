import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import { instanceUsersPath, type InstanceUser, type UserPermission } from './instance-users-query'

export interface InstanceUserCreateVariables {
  username: string
  permission: UserPermission
  password?: string
}

/** The new user and, only in this answer, its password. */
export type InstanceUserCreateResult = InstanceUser & { password?: string }

export async function createInstanceUser(project: string, id: string, variables: InstanceUserCreateVariables) {
  return apiRequest<InstanceUserCreateResult>('POST', instanceUsersPath(project, id), { body: variables })
}

export function useInstanceUserCreateMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceUserCreateVariables) => createInstanceUser(project, id, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.users(project, id) }),
  })
}
