import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type Project = Schemas['ProjectDto']

export async function getProjects(signal?: AbortSignal) {
  return (await unwrap(api.GET('/v1/projects', { signal }))).items
}

export function useProjectsQuery() {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: ({ signal }) => getProjects(signal), retry: false })
}

/** The caller's role in a project (undefined while loading): viewers read, members change, owners manage. */
export function useProjectRole(projectId: string): Project['role'] | undefined {
  const { data } = useProjectsQuery()
  return data?.find((p) => p.id === projectId)?.role
}
