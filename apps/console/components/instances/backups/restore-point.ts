// A restore's point in time as the console takes it: a `datetime-local` input read as UTC, to
// the second, checked with the API's own rule (@basalt/api-client/rules parsePointInTime) and
// against the source's restore window before anything is sent.
import { parsePointInTime } from '@basalt/api-client/rules'
import type { RestoreWindow } from '@/data/backups/restore-window-query'

/** `YYYY-MM-DDTHH:MM[:SS]` (an input drops `:00` seconds) as RFC 3339 UTC to the second; null if it is not one. */
export function inputToPoint(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?$/.exec(value.trim())
  if (!match) return null
  const point = `${match[1]}${match[2] ?? ':00'}Z`
  return parsePointInTime(point) instanceof Date ? point : null
}

/** An API time (RFC 3339) as the input's UTC value, to the second. */
export function pointToInput(iso: string): string {
  return new Date(Date.parse(iso)).toISOString().slice(0, 19)
}

/** The whole window the source can be restored to; null while it has none (no succeeded backup yet). */
export function restorableRange(window: RestoreWindow | undefined): { earliest: string; latest: string } | null {
  return window?.earliest && window.latest ? { earliest: window.earliest, latest: window.latest } : null
}

/** Why the input's point cannot be restored to, or null when it can. */
export function pointProblem(value: string, window: RestoreWindow | undefined): string | null {
  const range = restorableRange(window)
  if (!range) return 'The source has nothing to restore yet: its first backup has not succeeded.'
  if (!value.trim()) return 'Choose a point in time.'
  const point = inputToPoint(value)
  if (!point) return 'Enter a date and a time to the second, in UTC.'
  const at = Date.parse(point)
  if (at < Date.parse(range.earliest) || at > Date.parse(range.latest))
    return `Choose a point from ${shown(range.earliest)} to ${shown(range.latest)} UTC.`
  // The API refuses these too (409 point_in_gap): said here before anything is sent.
  const gap = window?.gaps.find((g) => at >= Date.parse(g.from) && at <= Date.parse(g.to))
  if (gap)
    return `No restore reaches ${shown(gap.from)} to ${shown(gap.to)} UTC exactly (a failover ended timeline ${gap.ended_timeline}); choose a point before or after it.`
  return null
}

const shown = (iso: string) => pointToInput(iso).replace('T', ' ')
