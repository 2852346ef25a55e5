import { useMutation } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'

/** `202`: the export (pending) and the `rdb_export` operation making its RDB file. */
export type BackupExportResult = Schemas['RdbExportAcceptedDto']

export async function exportBackup(project: string, backup: string) {
  return unwrap(api.POST('/v1/projects/{project}/backups/{backup}/exports', { params: { path: { project, backup } } }))
}

export function useBackupExportMutation(project: string) {
  return useMutation({ mutationFn: (backup: string) => exportBackup(project, backup) })
}
