import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

export type UserPermission = 'read_only' | 'read_write' | 'admin'

export interface InstanceUser {
  username: string
  permission: UserPermission
  created_at?: string
  old_password_expires_at?: string | null
}

export function instanceUsersPath(project: string, id: string) {
  return `/v1/projects/${seg(project)}/instances/${seg(id)}/users`
}

export async function getInstanceUsers(project: string, id: string, signal?: AbortSignal) {
  return (await apiRequest<Page<InstanceUser>>('GET', instanceUsersPath(project, id), { signal })).items
}

export function useInstanceUsersQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.users(project, id),
    queryFn: ({ signal }) => getInstanceUsers(project, id, signal),
  })
}
