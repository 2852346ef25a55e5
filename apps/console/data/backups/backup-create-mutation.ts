import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

/** `202`: the backup (pending) and the operation taking it. */
export type BackupCreateResult = Schemas['BackupAcceptedDto']

export async function createInstanceBackup(project: string, instance: string) {
  return unwrap(api.POST('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project, instance } } }))
}

export function useBackupCreateMutation(project: string, instance: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => createInstanceBackup(project, instance),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.backups(project, instance) }),
  })
}
