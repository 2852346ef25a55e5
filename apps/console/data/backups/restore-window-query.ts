import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type RestoreWindow = Schemas['RestoreWindowDto']

/** How often the window is read again: its latest point follows the archive, seconds behind the writes. */
const WINDOW_REFRESH_MS = 5_000

export async function getRestoreWindow(project: string, instance: string, signal?: AbortSignal) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/restore-window', { params: { path: { project, instance } }, signal }),
  )
}

export function useRestoreWindowQuery(project: string, instance: string | undefined) {
  return useQuery({
    queryKey: queryKeys.instances.restoreWindow(project, instance ?? ''),
    queryFn: ({ signal }) => getRestoreWindow(project, instance!, signal),
    enabled: Boolean(instance),
    refetchInterval: WINDOW_REFRESH_MS,
  })
}
