import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'

export async function deleteInstance(project: string, id: string) {
  return apiRequest<unknown>('DELETE', `/v1/projects/${seg(project)}/instances/${seg(id)}`)
}

export function useInstanceDeleteMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteInstance(project, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
