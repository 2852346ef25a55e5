'use client'
import { Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { AllowlistRow } from './validation'

/** Rows of CIDR + description; an empty list means no client can connect until one is added. */
export function AllowlistEditor({
  rows,
  onChange,
  error,
}: {
  rows: AllowlistRow[]
  onChange: (rows: AllowlistRow[]) => void
  error?: string
}) {
  const update = (index: number, patch: Partial<AllowlistRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)))
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">IP allowlist</legend>
      <p className="text-xs text-muted">Only clients from these addresses can connect. Use CIDR blocks such as 10.0.0.0/8.</p>
      {rows.map((row, index) => (
        <div key={index} className="flex gap-2">
          <Input
            aria-label={`Allowlist entry ${index + 1} CIDR`}
            placeholder="203.0.113.0/24"
            className="max-w-52 font-mono text-xs"
            value={row.cidr}
            aria-invalid={Boolean(error) || undefined}
            onChange={(e) => update(index, { cidr: e.target.value })}
          />
          <Input
            aria-label={`Allowlist entry ${index + 1} description`}
            placeholder="Description (optional)"
            value={row.description}
            onChange={(e) => update(index, { description: e.target.value })}
          />
          <Button
            variant="ghost"
            aria-label={`Remove allowlist entry ${index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </div>
      ))}
      {error ? <p className="text-xs text-danger">{error}</p> : null}
      <Button variant="secondary" size="sm" onClick={() => onChange([...rows, { cidr: '', description: '' }])}>
        <Plus className="size-3.5" aria-hidden /> Add entry
      </Button>
    </fieldset>
  )
}
