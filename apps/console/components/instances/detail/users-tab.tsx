'use client'
import { Plus } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useInstanceUserCreateMutation } from '@/data/instance-users/instance-user-create-mutation'
import { useInstanceUserDeleteMutation } from '@/data/instance-users/instance-user-delete-mutation'
import { useInstanceUserResetPasswordMutation } from '@/data/instance-users/instance-user-reset-password-mutation'
import { useInstanceUserRevokeOldPasswordMutation } from '@/data/instance-users/instance-user-revoke-old-password-mutation'
import { useInstanceUsersQuery, type UserPermission } from '@/data/instance-users/instance-users-query'
import { formatDateTime } from '../format'
import { SecretOnce } from './secret-once'

const PERMISSIONS: { value: UserPermission; label: string }[] = [
  { value: 'read_only', label: 'Read only' },
  { value: 'read_write', label: 'Read/write' },
  { value: 'admin', label: 'Admin' },
]

/** `locked`: why the users cannot change now (the API refuses it), shown instead of the actions. */
export function UsersTab({ projectId, instanceId, locked }: { projectId: string; instanceId: string; locked?: string }) {
  const { data: users, error, isPending } = useInstanceUsersQuery(projectId, instanceId)
  const reset = useInstanceUserResetPasswordMutation(projectId, instanceId)
  const remove = useInstanceUserDeleteMutation(projectId, instanceId)
  const revokeOld = useInstanceUserRevokeOldPasswordMutation(projectId, instanceId)
  const [adding, setAdding] = useState(false)
  const [secret, setSecret] = useState<{ username: string; password: string } | null>(null)

  return (
    <div className="space-y-4">
      {secret ? <SecretOnce label={`Password of ${secret.username}`} value={secret.password} what="password" /> : null}
      {locked ? <Alert>{locked}</Alert> : null}
      {error ? <Alert tone="danger">Could not load users: {error.message}</Alert> : null}
      {reset.error || remove.error || revokeOld.error ? (
        <Alert tone="danger">{(reset.error ?? remove.error ?? revokeOld.error)?.message}</Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Database users</CardTitle>
          <Button size="sm" disabled={!!locked} onClick={() => setAdding(true)}>
            <Plus className="size-3.5" aria-hidden /> Add user
          </Button>
        </CardHeader>
        {isPending ? (
          <p className="px-5 py-8 text-center text-sm text-muted">Loading users…</p>
        ) : (
          <Table aria-label="Database users">
            <THead>
              <tr>
                <Th>Username</Th>
                <Th>Permission</Th>
                <Th>Created</Th>
                <Th>Previous password</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {users?.map((user) => (
                <Tr key={user.username}>
                  <Td className="font-mono text-xs">{user.username}</Td>
                  <Td>{PERMISSIONS.find((p) => p.value === user.permission)?.label ?? user.permission}</Td>
                  <Td className="text-muted">{formatDateTime(user.created_at)}</Td>
                  <Td className="text-muted">
                    {user.old_password_valid_until ? (
                      <span className="flex items-center gap-2">
                        Valid until {formatDateTime(user.old_password_valid_until)}
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={!!locked || revokeOld.isPending}
                          aria-label={`Revoke the previous password of ${user.username}`}
                          onClick={() => revokeOld.mutate(user.username)}
                        >
                          Revoke now
                        </Button>
                      </span>
                    ) : (
                      '—'
                    )}
                  </Td>
                  <Td className="space-x-1 text-right whitespace-nowrap">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={!!locked || reset.isPending}
                      onClick={() =>
                        reset.mutate(user.username, {
                          onSuccess: (r) => setSecret({ username: user.username, password: r.password }),
                        })
                      }
                    >
                      Reset password
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-danger"
                      disabled={!!locked || remove.isPending}
                      aria-label={`Delete user ${user.username}`}
                      onClick={() => {
                        if (window.confirm(`Delete user ${user.username}? Clients using it are disconnected.`))
                          remove.mutate(user.username)
                      }}
                    >
                      Delete
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      <AddUserDialog
        projectId={projectId}
        instanceId={instanceId}
        open={adding}
        onOpenChange={setAdding}
        onCreated={(username, password) => password && setSecret({ username, password })}
      />
    </div>
  )
}

function AddUserDialog({
  projectId,
  instanceId,
  open,
  onOpenChange,
  onCreated,
}: {
  projectId: string
  instanceId: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onCreated: (username: string, password?: string) => void
}) {
  const create = useInstanceUserCreateMutation(projectId, instanceId)
  const [username, setUsername] = useState('')
  const [permission, setPermission] = useState<UserPermission>('read_write')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate(
      { username: username.trim(), permission },
      {
        onSuccess: (created) => {
          onCreated(created.user.username, created.password)
          onOpenChange(false)
          setUsername('')
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Add database user" description="A password is generated and shown once.">
        <form onSubmit={onSubmit} className="space-y-4">
          {create.error ? <Alert tone="danger">{create.error.message}</Alert> : null}
          <Field id="username" label="Username">
            <Input id="username" required value={username} onChange={(e) => setUsername(e.target.value)} />
          </Field>
          <Field id="permission" label="Permission">
            <Select value={permission} onValueChange={(v) => setPermission(v as UserPermission)}>
              <SelectTrigger id="permission">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {PERMISSIONS.map((p) => (
                  <SelectItem key={p.value} value={p.value}>
                    {p.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={create.isPending || !username.trim()}>
              Add user
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
