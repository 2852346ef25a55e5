import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

/** `GET /v1/auth/me`: the caller, their projects and how they authenticated. */
export type Session = Schemas['MeDto']

export async function getSession(signal?: AbortSignal) {
  return unwrap(api.GET('/v1/auth/me', { signal }))
}

export function useSessionQuery() {
  return useQuery({ queryKey: queryKeys.session(), queryFn: ({ signal }) => getSession(signal), retry: false })
}
