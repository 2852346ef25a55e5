import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type InstanceUser = Schemas['InstanceUserDto']
export type UserPermission = InstanceUser['permission']

export async function getInstanceUsers(project: string, instance: string, signal?: AbortSignal) {
  const list = await unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/users', { params: { path: { project, instance } }, signal }),
  )
  return list.items
}

export function useInstanceUsersQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.users(project, instance),
    queryFn: ({ signal }) => getInstanceUsers(project, instance, signal),
  })
}
