import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type ProjectMember = Schemas['MemberDto']

export async function getProjectMembers(project: string, signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/projects/{project}/members', { params: { path: { project } }, signal }))).items
}

export function useProjectMembersQuery(project: string) {
  return useQuery({ queryKey: queryKeys.members(project), queryFn: ({ signal }) => getProjectMembers(project, signal) })
}
