'use client'
import { useRouter, useSearchParams } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { ApiError } from '@/data/fetcher'
import { useLoginMutation } from '@/data/auth/login-mutation'

const HOME = '/'
// A base no path can leave: whatever resolves against it to another origin is not ours.
const SAME_ORIGIN = 'http://console.invalid'

/**
 * Only same-origin paths are followed after login, never an absolute URL from the query string.
 * Browsers read `\` as `/` (so `/\evil.example` is `//evil.example`, another host) and drop tabs
 * and newlines inside URLs, and some servers and proxies decode `%5C` and `%2F` in a path before
 * routing: a backslash or a control character anywhere, or an encoded slash, backslash or control
 * character in the path, is refused, and what is left must resolve to this origin, outside /login.
 */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.length > 2048) return HOME
  if (/[\\\u0000-\u001f\u007f]/.test(next) || /%(?:5c|2f|[01][0-9a-f]|7f)/i.test(next.split(/[?#]/)[0]!)) return HOME
  let url: URL
  try {
    url = new URL(next, SAME_ORIGIN)
  } catch {
    return HOME
  }
  if (url.origin !== SAME_ORIGIN || next.startsWith('//')) return HOME
  const path = url.pathname + url.search + url.hash
  return path === '/login' || path.startsWith('/login/') || path.startsWith('/login?') || path.startsWith('/login#') ? HOME : path
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
