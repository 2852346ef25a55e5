import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

export async function restartInstance(project: string, instance: string) {
  return unwrap(
    api.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path: { project, instance } } }),
  )
}

export function useInstanceRestartMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => restartInstance(project, instance),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
