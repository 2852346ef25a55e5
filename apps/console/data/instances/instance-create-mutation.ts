import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type InstanceCreateVariables = Schemas['CreateInstanceDto']

/** `202`: the instance, its first operation and — only in this answer — the default user's password. */
export type InstanceCreateResult = Schemas['CreatedInstanceDto']

export async function createInstance(project: string, body: InstanceCreateVariables) {
  return unwrap(api.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body }))
}

export function useInstanceCreateMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceCreateVariables) => createInstance(project, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
