import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function removeProjectMember(project: string, user: string) {
  return unwrap(api.DELETE('/v1/projects/{project}/members/{user}', { params: { path: { project, user } } }))
}

export function useProjectMemberRemoveMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (user: string) => removeProjectMember(project, user),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.members(project) }),
  })
}
