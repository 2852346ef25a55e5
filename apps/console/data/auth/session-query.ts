import { useQuery } from '@tanstack/react-query'
import { apiRequest } from '../fetcher'
import { queryKeys } from '../keys'

export interface SessionUser {
  id: string
  email: string
  name?: string
  is_admin?: boolean
}

export async function getSession(signal?: AbortSignal) {
  return apiRequest<SessionUser>('GET', '/v1/auth/me', { signal })
}

export function useSessionQuery() {
  return useQuery({ queryKey: queryKeys.session(), queryFn: ({ signal }) => getSession(signal), retry: false })
}
