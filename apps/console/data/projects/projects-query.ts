import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Page } from '../page'

export interface Project {
  id: string
  name: string
  role?: 'owner' | 'member' | 'viewer'
  created_at?: string
}

export async function getProjects(signal?: AbortSignal) {
  return (await apiRequest<Page<Project>>('GET', '/v1/projects', { signal })).items
}

export function useProjectsQuery() {
  return useQuery({ queryKey: queryKeys.projects(), queryFn: ({ signal }) => getProjects(signal), retry: false })
}
