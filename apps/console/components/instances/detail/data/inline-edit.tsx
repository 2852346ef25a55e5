'use client'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'

/**
 * A value shown as text, with (when `onSave` is given) an Edit button that turns it into an
 * input: `what` and `of` name both for assistive tech ("Edit score of ada", "New score of ada").
 */
export function InlineEdit({ text, what, of, onSave, pending, type = 'text' }: { text: string; what: string; of: string; onSave?: (value: string) => void; pending?: boolean; type?: 'text' | 'number' }) {
  const [draft, setDraft] = useState<string | null>(null)
  if (draft === null || !onSave) {
    return (
      <span className="flex items-start gap-2">
        <span className="font-mono text-xs break-all whitespace-pre-wrap">{text}</span>
        {onSave ? (
          <Button variant="ghost" size="sm" aria-label={`Edit ${what} of ${of}`} onClick={() => setDraft(text)}>
            Edit
          </Button>
        ) : null}
      </span>
    )
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave(draft)
    setDraft(null)
  }
  return (
    <form className="flex items-center gap-2" onSubmit={submit}>
      <Input aria-label={`New ${what} of ${of}`} type={type} step="any" className="h-7 font-mono text-xs" value={draft} autoFocus onChange={(e) => setDraft(e.target.value)} />
      <Button type="submit" size="sm" disabled={pending}>
        Save
      </Button>
      <Button variant="ghost" size="sm" onClick={() => setDraft(null)}>
        Cancel
      </Button>
    </form>
  )
}
