'use client'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useUserCreateMutation } from '@/data/users/user-create-mutation'

/** Administrators create console accounts; the new user then gets added to projects by e-mail. */
export function CreateUserDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onCreated: (email: string) => void
}) {
  const create = useUserCreateMutation()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate(
      { email: email.trim(), name: name.trim(), password },
      {
        onSuccess: (user) => {
          onCreated(user.email)
          onOpenChange(false)
          setEmail('')
          setName('')
          setPassword('')
        },
      },
    )
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) create.reset()
        onOpenChange(next)
      }}
    >
      <DialogContent title="Create user" description="A console account with its own default project. Share the password with them yourself.">
        <form onSubmit={onSubmit} className="space-y-4">
          {create.error ? <Alert tone="danger">{create.error.message}</Alert> : null}
          <Field id="new-user-email" label="E-mail">
            <Input id="new-user-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field id="new-user-name" label="Name">
            <Input id="new-user-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field id="new-user-password" label="Initial password" hint="At least 8 characters.">
            <Input
              id="new-user-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={create.isPending || !email.trim() || password.length < 8}>
              Create user
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
