import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type ProjectRole = Schemas['AddMemberDto']['role']

/** Adds an existing user, by e-mail, to the project (owners only). */
export async function addProjectMember(project: string, body: { email: string; role: ProjectRole }) {
  return unwrap(api.POST('/v1/projects/{project}/members', { params: { path: { project } }, body }))
}

export function useProjectMemberAddMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { email: string; role: ProjectRole }) => addProjectMember(project, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.members(project) }),
  })
}
