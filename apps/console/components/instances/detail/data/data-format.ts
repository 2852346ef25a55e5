// How the data browser words a key's facts.
import type { ShownText } from '@/data/data-browser/data-value-query'

/** PTTL as a person reads it: "No expiry", "45 s", "3 min 20 s", "2 h 5 min", "4 d 1 h". */
export function formatTtl(ms: number | null): string {
  if (ms === null) return 'No expiry'
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`
}

/** The text of a value, with what was cut said after it. */
export function shownLabel(value: ShownText): string {
  return value.truncated ? `${value.text}… (${value.length} bytes in all)` : value.text
}

/** Only whole UTF-8 text can be edited and written back byte for byte. */
export const editable = (value: ShownText) => !value.truncated && !value.binary

export const TYPE_LABELS: Record<string, string> = {
  string: 'String',
  hash: 'Hash',
  list: 'List',
  set: 'Set',
  zset: 'Sorted set',
  stream: 'Stream',
}
