'use client'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/** One line of inputs that adds to a value (a field and its value, a member, a score ...). */
export function AddForm({ inputs, action, pending, onAdd }: { inputs: { name: string; label: string; type?: 'text' | 'number' }[]; action: string; pending?: boolean; onAdd: (values: Record<string, string>) => void }) {
  const empty = Object.fromEntries(inputs.map((i) => [i.name, '']))
  const [values, setValues] = useState<Record<string, string>>(empty)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onAdd(values)
    setValues(empty)
  }
  return (
    <form className="flex flex-wrap items-center gap-2 border-t border-border pt-3" onSubmit={submit} aria-label={action}>
      {inputs.map((input) => (
        <Input
          key={input.name}
          aria-label={input.label}
          placeholder={input.label}
          type={input.type ?? 'text'}
          step="any"
          required
          className="h-7 w-40 font-mono text-xs"
          value={values[input.name]}
          onChange={(e) => setValues({ ...values, [input.name]: e.target.value })}
        />
      ))}
      <Button type="submit" size="sm" variant="secondary" disabled={pending}>
        {action}
      </Button>
    </form>
  )
}
