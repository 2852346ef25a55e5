// Lists from the API arrive as a page: {data: [...], next_cursor}.
export interface Page<T> {
  data: T[]
  next_cursor?: string | null
}

/** Accepts a page or a bare array, so list hooks hand components a plain array either way. */
export function itemsOf<T>(body: Page<T> | T[] | undefined): T[] {
  if (!body) return []
  return Array.isArray(body) ? body : (body.data ?? [])
}
