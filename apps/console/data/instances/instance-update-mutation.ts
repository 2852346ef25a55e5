import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'

export interface InstanceUpdateVariables {
  name?: string
  instance_type?: string
  disk_gib?: number
  deletion_protection?: boolean
}

export async function updateInstance(project: string, id: string, variables: InstanceUpdateVariables) {
  return apiRequest<unknown>('PATCH', `/v1/projects/${seg(project)}/instances/${seg(id)}`, { body: variables })
}

export function useInstanceUpdateMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceUpdateVariables) => updateInstance(project, id, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
