// The one place the console talks HTTP: every call goes to the same-origin `/v1/*` proxy,
// so the API's httpOnly session cookie rides along. Errors carry the API's {code, message}.

export interface ApiErrorBody {
  code?: string
  message?: string
  request_id?: string
  details?: unknown
}

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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/** Calls the API; resolves to the parsed JSON body (undefined for 204) or throws ApiError. */
export async function apiRequest<T>(
  method: Method,
  path: string,
  options: { body?: unknown; signal?: AbortSignal; query?: Record<string, string | number | undefined> } = {},
): Promise<T> {
  const url = new URL(path, typeof window === 'undefined' ? 'http://localhost' : window.location.origin)
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value))
  }
  const response = await fetch(url.pathname + url.search, {
    method,
    credentials: 'same-origin',
    headers: options.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  })
  const text = await response.text()
  let parsed: unknown = undefined
  if (text) {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = { message: text.slice(0, 200) }
    }
  }
  if (!response.ok) throw new ApiError(response.status, parsed as ApiErrorBody | undefined)
  return parsed as T
}

/** Path segment escaping for ids and names taken from the URL. */
export const seg = (value: string) => encodeURIComponent(value)
