import { useMutation, useQueryClient } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import { allowlistPath, type Allowlist } from './allowlist-query'

export async function replaceAllowlist(project: string, id: string, entries: { cidr: string; description?: string }[]) {
  return apiRequest<Allowlist>('PUT', allowlistPath(project, id), { body: { entries } })
}

export function useAllowlistReplaceMutation(project: string, id: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (entries: { cidr: string; description?: string }[]) => replaceAllowlist(project, id, entries),
    onSuccess: (allowlist) => {
      queryClient.setQueryData(queryKeys.instances.allowlist(project, id), allowlist)
      void queryClient.invalidateQueries({ queryKey: queryKeys.instances.operations(project, id) })
    },
  })
}
