import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Operation } from '../operations/operation-types'

export type InstanceStatus =
  | 'creating'
  | 'running'
  | 'modifying'
  | 'restarting'
  | 'deleting'
  | 'deleted'
  | 'create_failed'
  | 'error'

export type InstanceHealth = 'healthy' | 'degraded' | 'unavailable'

export interface Endpoint {
  type: 'private' | 'public'
  host: string
  port: number
  tls: boolean
}

export interface Instance {
  id: string
  project_id: string
  name: string
  instance_type: string
  region: string
  engine_version: string
  disk_gib: number
  status: InstanceStatus
  health: InstanceHealth | null
  fault: {
    code?: string
    message: string
    step: string | null
    exit_code?: number | null
    output_tail?: string
    operation_id?: string
  } | null
  endpoints: Endpoint[]
  connection_uri: string | null
  nodes: { name: string; private_ip?: string; role?: string; status?: string }[]
  tls_enabled: boolean
  deletion_protection: boolean
  tags: Record<string, string>
  parameters: { fsync?: string; maxmemory_policy?: string; maxclients?: number; timeout?: number }
  /** Only on `GET /instances/{id}`. */
  current_operation?: Operation | null
  current_operation_id: string | null
  created_at: string
  updated_at: string
}

/** Statuses in which work is under way and the page should keep refreshing. */
export const TRANSITIONAL_STATUSES: ReadonlySet<InstanceStatus> = new Set([
  'creating',
  'modifying',
  'restarting',
  'deleting',
])

export async function getInstance(project: string, id: string, signal?: AbortSignal) {
  return apiRequest<Instance>('GET', `/v1/projects/${seg(project)}/instances/${seg(id)}`, { signal })
}

export function useInstanceQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.detail(project, id),
    queryFn: ({ signal }) => getInstance(project, id, signal),
    refetchInterval: (query) => (query.state.data && TRANSITIONAL_STATUSES.has(query.state.data.status) ? 5_000 : false),
  })
}
