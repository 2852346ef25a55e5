import { useQuery } from '@tanstack/react-query'
import { apiRequest, seg } from '../fetcher'
import { queryKeys } from '../keys'
import { itemsOf, type Page } from '../page'

export interface AllowlistEntry {
  cidr: string
  description?: string
}

export function allowlistPath(project: string, id: string) {
  return `/v1/projects/${seg(project)}/instances/${seg(id)}/allowlist`
}

type AllowlistBody = Page<AllowlistEntry> | AllowlistEntry[] | { entries: AllowlistEntry[] }

export function entriesOf(body: AllowlistBody | undefined): AllowlistEntry[] {
  if (body && !Array.isArray(body) && 'entries' in body) return body.entries
  return itemsOf(body as Page<AllowlistEntry> | AllowlistEntry[] | undefined)
}

export async function getAllowlist(project: string, id: string, signal?: AbortSignal) {
  return entriesOf(await apiRequest<AllowlistBody>('GET', allowlistPath(project, id), { signal }))
}

export function useAllowlistQuery(project: string, id: string) {
  return useQuery({
    queryKey: queryKeys.instances.allowlist(project, id),
    queryFn: ({ signal }) => getAllowlist(project, id, signal),
  })
}
