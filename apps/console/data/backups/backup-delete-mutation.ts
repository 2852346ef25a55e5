import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '../fetcher'
import { queryKeys } from '../keys'

/** Asks for a finished backup to go: it shows `deleting` until the worker has removed its objects. */
export async function deleteBackup(project: string, backup: string) {
  return unwrap(api.DELETE('/v1/projects/{project}/backups/{backup}', { params: { path: { project, backup } } }))
}

export function useBackupDeleteMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (backup: string) => deleteBackup(project, backup),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.backups(project, instance) }),
  })
}
