// The data browser's changes: an edit of a value, a TTL, a delete. Each refreshes the key's
// value and the key list (its type or TTL may have changed).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'
import { loginHeaders, type DatabaseLogin } from './credentials'

export type DataEdit = Schemas['DataEditDto']

function useDataChange<V, R>(project: string, instance: string, login: DatabaseLogin, change: (params: ReturnType<typeof paramsOf>, variables: V) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (variables: V) => change(paramsOf(project, instance, login), variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.instances.data(project, instance) }),
  })
}

const paramsOf = (project: string, instance: string, login: DatabaseLogin) => ({ path: { project, instance }, header: loginHeaders(login) })

export function useDataEditMutation(project: string, instance: string, login: DatabaseLogin) {
  return useDataChange(project, instance, login, (params, body: DataEdit) =>
    unwrap(api.POST('/v1/projects/{project}/instances/{instance}/data/edits', { params, body })),
  )
}

export function useDataTtlMutation(project: string, instance: string, login: DatabaseLogin) {
  return useDataChange(project, instance, login, (params, body: { key: string; ttl_seconds: number | null }) =>
    unwrap(api.PUT('/v1/projects/{project}/instances/{instance}/data/ttl', { params, body })),
  )
}

export function useDataDeleteMutation(project: string, instance: string, login: DatabaseLogin) {
  return useDataChange(project, instance, login, (params, key: string) =>
    unwrap(api.DELETE('/v1/projects/{project}/instances/{instance}/data/value', { params: { ...params, query: { key } } })),
  )
}

/** One command line; its reply as redis-cli prints it (an engine error is a reply, not a failure). */
export function useDataCommandMutation(project: string, instance: string, login: DatabaseLogin) {
  return useDataChange(project, instance, login, (params, command: string) =>
    unwrap(api.POST('/v1/projects/{project}/instances/{instance}/data/command', { params, body: { command } })),
  )
}
