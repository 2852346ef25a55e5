'use client'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useDataCommandMutation } from '@/data/data-browser/data-change-mutations'
import type { BrowserProps } from './data-browser'

interface Ran {
  id: number
  command: string
  output: string
  error: boolean
}

/** One command at a time, split as redis-cli splits a line; replies as redis-cli prints them, newest last. */
export function CommandLine({ projectId, instanceId, login }: BrowserProps) {
  const run = useDataCommandMutation(projectId, instanceId, login)
  const [command, setCommand] = useState('')
  const [history, setHistory] = useState<Ran[]>([])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const line = command
    run.mutate(line, {
      onSuccess: (result) => {
        setHistory((h) => [...h.slice(-49), { id: Date.now(), command: line, ...result }])
        setCommand('')
      },
    })
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Command line</CardTitle>
        <p className="text-sm text-muted">As {login.username}, one command per request; quotes and \xHH escapes as in redis-cli.</p>
      </CardHeader>
      <CardBody className="space-y-3">
        <div role="log" aria-label="Command output" className="max-h-96 space-y-2 overflow-auto rounded-md bg-canvas p-3 font-mono text-xs">
          {history.length === 0 ? <p className="text-muted">Replies appear here.</p> : null}
          {history.map((ran) => (
            <div key={ran.id}>
              <div className="text-muted">&gt; {ran.command}</div>
              <pre className={ran.error ? 'whitespace-pre-wrap text-danger' : 'whitespace-pre-wrap'}>{ran.output}</pre>
            </div>
          ))}
        </div>
        <form className="flex gap-2" onSubmit={submit}>
          <Input aria-label="Command" className="font-mono" placeholder='HGET "user:1" name' value={command} onChange={(e) => setCommand(e.target.value)} required />
          <Button type="submit" disabled={run.isPending}>
            Run
          </Button>
        </form>
        {run.error ? <Alert tone="danger">{run.error.message}</Alert> : null}
      </CardBody>
    </Card>
  )
}
