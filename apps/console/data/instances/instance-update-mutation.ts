import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type InstanceUpdateVariables = Schemas['UpdateInstanceDto']

export async function updateInstance(project: string, instance: string, body: InstanceUpdateVariables) {
  return unwrap(api.PATCH('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance } }, body }))
}

export function useInstanceUpdateMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceUpdateVariables) => updateInstance(project, instance, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
