// The one place the console talks HTTP: the typed client generated from the API's OpenAPI spec,
// pointed at the same-origin `/v1/*` proxy so the API's httpOnly session cookie rides along.
import { createBasaltClient, type Schemas } from '@basalt/api-client'

export type { Schemas }

export const api = createBasaltClient({ baseUrl: '' })

export type ApiErrorBody = Partial<Schemas['ErrorDto']>

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly requestId?: string
  readonly details?: unknown

  constructor(status: number, body: ApiErrorBody | undefined) {
    super(body?.message || `Request failed with HTTP ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.code = body?.code ?? `http_${status}`
    this.requestId = body?.request_id
    this.details = body?.details
  }
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401
}

/** Resolves to a call's body (undefined for 204) or throws ApiError with the API's {code, message}. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response }
  try {
    result = await call
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, { message: 'The console cannot reach the API. Check your connection and try again.' })
  }
  if (!result.response.ok) {
    const body = typeof result.error === 'object' && result.error !== null ? (result.error as ApiErrorBody) : { message: String(result.error ?? '') }
    throw new ApiError(result.response.status, body)
  }
  return result.data as T
}
