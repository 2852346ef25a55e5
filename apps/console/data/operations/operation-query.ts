import { api, unwrap } from '../fetcher'

/** `GET /v1/operations/{id}`: the operation with its steps and progress as the worker last saved them. */
export async function getOperation(id: string, signal?: AbortSignal) {
  return unwrap(api.GET('/v1/operations/{id}', { params: { path: { id } }, signal }))
}
