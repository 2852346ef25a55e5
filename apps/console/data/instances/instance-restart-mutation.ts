import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'

export async function restartInstance(project: string, id: string) {
  return apiRequest<unknown>('POST', `/v1/projects/${seg(project)}/instances/${seg(id)}/restart`)
}

export function useInstanceRestartMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => restartInstance(project, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
