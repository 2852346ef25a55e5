import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Operation } from '../operations/operation-types'
import type { Instance } from './instance-query'

export interface InstanceCreateVariables {
  name: string
  instance_type: string
  region: string
  disk_gib: number
  password?: string
  allowlist: { cidr: string; description?: string }[]
  tls_enabled: boolean
  deletion_protection: boolean
  engine_version?: string
}

/** `202`: the instance, its first operation and — only in this answer — the default user's password. */
export interface InstanceCreateResult {
  instance: Instance
  operation: Operation | null
  default_user: { username: string; password: string }
}

export async function createInstance(project: string, variables: InstanceCreateVariables) {
  return apiRequest<InstanceCreateResult>('POST', `/v1/projects/${seg(project)}/instances`, { body: variables })
}

export function useInstanceCreateMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceCreateVariables) => createInstance(project, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
