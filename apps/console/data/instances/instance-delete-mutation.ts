import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function deleteInstance(project: string, instance: string) {
  return unwrap(api.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance } } }))
}

export function useInstanceDeleteMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => deleteInstance(project, instance),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
