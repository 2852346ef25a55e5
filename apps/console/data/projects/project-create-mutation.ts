import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Project } from './projects-query'

export async function createProject(variables: { name: string }) {
  return apiRequest<Project>('POST', '/v1/projects', { body: variables })
}

export function useProjectCreateMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
  })
}
