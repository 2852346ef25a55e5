import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'
import type { ProjectRole } from './project-member-add-mutation'

export async function updateProjectMember(project: string, user: string, role: ProjectRole) {
  return unwrap(api.PATCH('/v1/projects/{project}/members/{user}', { params: { path: { project, user } }, body: { role } }))
}

export function useProjectMemberUpdateMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ user, role }: { user: string; role: ProjectRole }) => updateProjectMember(project, user, role),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.members(project) }),
  })
}
