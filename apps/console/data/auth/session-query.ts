import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'
import type { Project } from '../projects/projects-query'

export interface SessionUser {
  id: string
  email: string
  name: string
  is_admin: boolean
  created_at: string
}

/** `GET /v1/auth/me`: the caller and their projects. */
export interface Session {
  user: SessionUser
  projects: Project[]
  auth_method: 'session' | 'api_key'
}

export async function getSession(signal?: AbortSignal) {
  return apiRequest<Session>('GET', '/v1/auth/me', { signal })
}

export function useSessionQuery() {
  return useQuery({ queryKey: queryKeys.session(), queryFn: ({ signal }) => getSession(signal), retry: false })
}
