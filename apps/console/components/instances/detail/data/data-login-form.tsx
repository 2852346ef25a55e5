'use client'
import { useState, type FormEvent } from 'react'
import { DB_PASSWORD } from '@basalt/api-client/rules'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { OptionsSelect } from '@/components/ui/options-select'
import { useDataAccessMutation, type DataAccess } from '@/data/data-browser/data-access-mutation'
import type { DatabaseLogin } from '@/data/data-browser/credentials'
import { useInstanceUsersQuery } from '@/data/instance-users/instance-users-query'

/** Log in as one of the instance's database users; a wrong password is said, not thrown. */
export function DataLoginForm({ projectId, instanceId, onLoggedIn }: { projectId: string; instanceId: string; onLoggedIn: (login: DatabaseLogin, access: DataAccess) => void }) {
  const { data: users } = useInstanceUsersQuery(projectId, instanceId)
  const access = useDataAccessMutation(projectId, instanceId)
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const chosen = username || users?.[0]?.username || ''

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setProblem(null)
    // A password the rules could never have made cannot be this user's (and cannot ride in a header).
    if (!DB_PASSWORD.test(password)) return setProblem(`That is not the password of ${chosen}: passwords are 12-128 printable ASCII characters without spaces or quotes.`)
    const login = { username: chosen, password }
    access.mutate(login, { onSuccess: (granted) => onLoggedIn(login, granted) })
  }

  return (
    <Card>
      <CardBody>
        <form className="grid max-w-xl gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={submit} aria-label="Log in to the data browser">
          <Field id="data-user" label="Database user">
            <OptionsSelect id="data-user" value={chosen} options={(users ?? []).map((u) => ({ value: u.username, label: u.username }))} onChange={setUsername} />
          </Field>
          <Field id="data-password" label="Password">
            <Input id="data-password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} required />
          </Field>
          <Button type="submit" disabled={!chosen || access.isPending}>
            {access.isPending ? 'Logging in…' : 'Open data browser'}
          </Button>
        </form>
        {problem || access.error ? (
          <Alert tone="danger" className="mt-4">
            {problem ?? access.error?.message}
          </Alert>
        ) : null}
      </CardBody>
    </Card>
  )
}
