import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

/** The entries and the operation applying the last change to the running engine. */
export type Allowlist = Schemas['AllowlistDto']
export type AllowlistEntry = Schemas['AllowlistEntryDto']

export async function getAllowlist(project: string, instance: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path: { project, instance } }, signal }),
  )
}

export function useAllowlistQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.allowlist(project, instance),
    queryFn: ({ signal }) => getAllowlist(project, instance, signal),
  })
}
