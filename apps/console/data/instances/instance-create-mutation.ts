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
  operation?: Operation
  password?: string
}

type CreateBody = Partial<InstanceCreateResult> & Partial<Instance> & { password?: string }

export async function createInstance(project: string, variables: InstanceCreateVariables): Promise<InstanceCreateResult> {
  const body = await apiRequest<CreateBody>('POST', `/v1/projects/${seg(project)}/instances`, { body: variables })
  // The instance may come wrapped ({instance, operation}) or flat; the password is returned once either way.
  const instance = (body.instance ?? body) as Instance
  const password = body.password ?? (body.instance as { password?: string } | undefined)?.password
  return { instance, operation: body.operation ?? body.current_operation ?? undefined, password }
}

export function useInstanceCreateMutation(project: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: InstanceCreateVariables) => createInstance(project, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) }),
  })
}
