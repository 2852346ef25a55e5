import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type Backup = Schemas['BackupDto']
export type BackupStatus = Backup['status']

/** Statuses the worker still moves on from: the list keeps refreshing while one is shown. */
export const UNFINISHED_BACKUP_STATUSES: ReadonlySet<BackupStatus> = new Set<BackupStatus>(['pending', 'running', 'deleting'])

/** An instance's backups, newest first. */
export async function getInstanceBackups(project: string, instance: string, signal?: AbortSignal) {
  const list = await unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/backups', { params: { path: { project, instance } }, signal }),
  )
  return list.items
}

export function useInstanceBackupsQuery(project: string, instance: string | undefined) {
  return useQuery({
    queryKey: queryKeys.instances.backups(project, instance ?? ''),
    queryFn: ({ signal }) => getInstanceBackups(project, instance!, signal),
    enabled: Boolean(instance),
    refetchInterval: (query) => (query.state.data?.some((b) => UNFINISHED_BACKUP_STATUSES.has(b.status)) ? 3_000 : false),
  })
}
