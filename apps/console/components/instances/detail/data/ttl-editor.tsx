'use client'
import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { useDataTtlMutation } from '@/data/data-browser/data-change-mutations'
import type { BrowserProps } from './data-browser'

/** EXPIRE in seconds, or PERSIST. */
export function TtlEditor({ projectId, instanceId, login, dataKey }: BrowserProps & { dataKey: string }) {
  const ttl = useDataTtlMutation(projectId, instanceId, login)
  const [seconds, setSeconds] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    ttl.mutate({ key: dataKey, ttl_seconds: Number(seconds) }, { onSuccess: () => setSeconds('') })
  }
  return (
    <form className="flex flex-wrap items-center gap-2" onSubmit={submit}>
      <Label htmlFor="data-ttl">TTL in seconds</Label>
      <Input id="data-ttl" type="number" min={1} step={1} required className="w-32" value={seconds} onChange={(e) => setSeconds(e.target.value)} />
      <Button type="submit" size="sm" variant="secondary" disabled={ttl.isPending}>
        Set TTL
      </Button>
      <Button size="sm" variant="ghost" disabled={ttl.isPending} onClick={() => ttl.mutate({ key: dataKey, ttl_seconds: null })}>
        Remove TTL
      </Button>
      {ttl.error ? <span className="text-xs text-danger">{ttl.error.message}</span> : null}
    </form>
  )
}
