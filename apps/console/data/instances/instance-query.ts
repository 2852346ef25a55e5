import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type Instance = Schemas['InstanceDto'] & { current_operation?: Schemas['OperationDto'] | null }
export type InstanceDetail = Schemas['InstanceDetailDto']
export type InstanceStatus = Instance['status']
export type InstanceHealth = NonNullable<Instance['health']>
export type Endpoint = Schemas['EndpointDto']

/** Statuses in which work is under way and the page should keep refreshing. */
export const TRANSITIONAL_STATUSES: ReadonlySet<InstanceStatus> = new Set<InstanceStatus>([
  'creating',
  'modifying',
  'restarting',
  'deleting',
])

export async function getInstance(project: string, instance: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance } }, signal }))
}

export function useInstanceQuery(project: string, instance: string) {
  return useQuery({
    queryKey: queryKeys.instances.detail(project, instance),
    queryFn: ({ signal }) => getInstance(project, instance, signal),
    refetchInterval: (query) => (query.state.data && TRANSITIONAL_STATUSES.has(query.state.data.status) ? 5_000 : false),
  })
}
