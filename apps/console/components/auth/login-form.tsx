'use client'
import { useRouter, useSearchParams } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/data/fetcher'
import { useLoginMutation } from '@/data/auth/login-mutation'

/** Only same-site paths are followed after login, never an absolute URL from the query string. */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/login')) return '/'
  return next
}

export function LoginForm() {
  const router = useRouter()
  const searchParams = useSearchParams()
  const login = useLoginMutation()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    login.mutate(
      { email: email.trim(), password },
      { onSuccess: () => router.replace(safeNextPath(searchParams.get('next'))) },
    )
  }

  const error = login.error
  const message =
    error instanceof ApiError && (error.status === 401 || error.status === 400)
      ? 'The e-mail or password is not correct.'
      : error
        ? `Could not sign in: ${error.message}`
        : null

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Sign in">
      {message ? <Alert tone="danger">{message}</Alert> : null}
      <Field id="email" label="E-mail">
        <Input
          id="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field id="password" label="Password">
        <Input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={login.isPending}>
        {login.isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  )
}
