import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import type { Operation } from '../operations/operation-types'

export interface AllowlistEntry {
  cidr: string
  description: string
  created_at?: string
}

/** The entries and the operation applying the last change to the running engine. */
export interface Allowlist {
  items: AllowlistEntry[]
  operation: Operation | null
}

export function allowlistPath(project: string, id: string) {
  return `/v1/projects/${seg(project)}/instances/${seg(id)}/allowlist`
}

export async function getAllowlist(project: string, id: string, signal?: AbortSignal) {
  return apiRequest<Allowlist>('GET', allowlistPath(project, id), { signal })
}

export function useAllowlistQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.allowlist(project, id),
    queryFn: ({ signal }) => getAllowlist(project, id, signal),
  })
}
