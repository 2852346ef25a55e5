import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function createProject(variables: { name: string }) {
  return unwrap(api.POST('/v1/projects', { body: variables }))
}

export function useProjectCreateMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
  })
}
