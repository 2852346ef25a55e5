'use client'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import type { RestoreWindow } from '@/data/backups/restore-window-query'
import { formatInstant } from '../format'
import { pointToInput, restorableRange } from './restore-point'

/** A `datetime-local` input read as UTC, to the second, bounded by the source's restore window. */
export function PointInTimeField({
  restoreWindow,
  loading,
  value,
  onChange,
  error,
}: {
  restoreWindow: RestoreWindow | undefined
  loading: boolean
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  const range = restorableRange(restoreWindow)
  return (
    <Field
      id="restore-point"
      label="Point in time (UTC)"
      error={error}
      hint={
        range
          ? `Restorable from ${formatInstant(range.earliest)} to ${formatInstant(range.latest)}${gapsText(restoreWindow!)}.`
          : loading
            ? 'Loading the restorable window…'
            : 'Nothing to restore yet: no backup of this instance has succeeded.'
      }
    >
      <Input
        id="restore-point"
        type="datetime-local"
        step={1}
        min={range ? pointToInput(range.earliest) : undefined}
        max={range ? pointToInput(range.latest) : undefined}
        value={value}
        aria-invalid={Boolean(error) || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  )
}

/** The seconds a failover left out of the window, as the hint names them. */
function gapsText(restoreWindow: RestoreWindow): string {
  if (!restoreWindow.gaps.length) return ''
  return `, except ${restoreWindow.gaps.map((gap) => `${formatInstant(gap.from)} to ${formatInstant(gap.to)}`).join(' and ')} (a failover)`
}
