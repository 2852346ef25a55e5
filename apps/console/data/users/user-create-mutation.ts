import { useMutation } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../fetcher'

export type UserCreateVariables = Schemas['CreateUserDto']

/** Creates a console user with their own default project (administrators only). */
export async function createUser(body: UserCreateVariables) {
  return unwrap(api.POST('/v1/users', { body }))
}

export function useUserCreateMutation() {
  return useMutation({ mutationFn: createUser })
}
