'use client'
import type { InstanceType } from '@/data/catalog/instance-types-query'
import { cn } from '@/lib/utils'
import { formatGib, formatNumber } from '../format'

/** The instance types as a radio group of cards: size, vCPU, memory and connections. */
export function InstanceTypePicker({
  types,
  value,
  region,
  onChange,
  error,
}: {
  types: InstanceType[]
  value: string
  region: string
  onChange: (id: string) => void
  error?: string
}) {
  return (
    <fieldset aria-describedby={error ? 'instance-type-error' : undefined}>
      <legend className="mb-2 text-sm font-medium">Instance type</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3">
        {types.map((type) => {
          const offered = !region || !type.regions.length || type.regions.includes(region)
          const checked = value === type.id
          return (
            <label
              key={type.id}
              className={cn(
                'flex cursor-pointer gap-3 rounded-md border bg-surface p-3 text-sm',
                checked ? 'border-brand ring-2 ring-brand/20' : 'border-border hover:border-muted/50',
                !offered && 'cursor-not-allowed opacity-50',
              )}
            >
              <input
                type="radio"
                name="instance-type"
                value={type.id}
                checked={checked}
                disabled={!offered}
                onChange={() => onChange(type.id)}
                className="mt-0.5 accent-brand"
                aria-label={`${type.id}, ${type.vcpu} vCPU, ${formatGib(type.memory_gib)} memory`}
              />
              <span className="min-w-0">
                <span className="block font-mono text-xs font-semibold">{type.id}</span>
                <span className="mt-0.5 block text-ink">
                  {type.vcpu} vCPU · {formatGib(type.memory_gib)}
                </span>
                <span className="mt-0.5 block text-xs text-muted">
                  {formatNumber(type.max_connections)} connections
                </span>
              </span>
            </label>
          )
        })}
      </div>
      {error ? (
        <p id="instance-type-error" className="mt-1.5 text-xs text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
