import { useMutation } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { loginHeaders, type DatabaseLogin } from './credentials'

export type DataAccess = Schemas['DataAccessDto']

/** Logs in as a database user: its permission and key count, or a 403 for a wrong password. */
export async function getDataAccess(project: string, instance: string, login: DatabaseLogin) {
  return unwrap(
    api.GET('/v1/projects/{project}/instances/{instance}/data/access', { params: { path: { project, instance }, header: loginHeaders(login) } }),
  )
}

export function useDataAccessMutation(project: string, instance: string) {
  return useMutation({ mutationFn: (login: DatabaseLogin) => getDataAccess(project, instance, login) })
}
