import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import { allowlistPath, type AllowlistEntry } from './allowlist-query'

export async function replaceAllowlist(project: string, id: string, entries: AllowlistEntry[]) {
  return apiRequest<unknown>('PUT', allowlistPath(project, id), { body: { entries } })
}

export function useAllowlistReplaceMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (entries: AllowlistEntry[]) => replaceAllowlist(project, id, entries),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.allowlist(project, id) }),
  })
}
