import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type AllowlistEntryInput = Schemas['AllowlistEntryInputDto']

export async function replaceAllowlist(project: string, instance: string, entries: AllowlistEntryInput[]) {
  return unwrap(
    api.PUT('/v1/projects/{project}/instances/{instance}/allowlist', {
      params: { path: { project, instance } },
      body: { entries },
    }),
  )
}

export function useAllowlistReplaceMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (entries: AllowlistEntryInput[]) => replaceAllowlist(project, instance, entries),
    onSuccess: (allowlist) => {
      queryClient.setQueryData(queryKeys.instances.allowlist(project, instance), allowlist)
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.operations(project, instance) })
    },
  })
}
