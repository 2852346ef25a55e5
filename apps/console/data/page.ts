// Lists from the API arrive as {items: [...], next_cursor} (next_cursor only where paginated).
export interface Page<T> {
  items: T[]
  next_cursor?: string | null
}
