'use client'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useProjectMemberAddMutation, type ProjectRole } from '@/data/projects/project-member-add-mutation'
import { RoleSelect } from './role-select'

export function AddMemberDialog({ projectId, open, onOpenChange }: { projectId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const add = useProjectMemberAddMutation(projectId)
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<ProjectRole>('member')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    add.mutate(
      { email: email.trim(), role },
      {
        onSuccess: () => {
          onOpenChange(false)
          setEmail('')
        },
      },
    )
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) add.reset()
        onOpenChange(next)
      }}
    >
      <DialogContent title="Add member" description="Give an existing Basalt user access to this project.">
        <form onSubmit={onSubmit} className="space-y-4">
          {add.error ? <Alert tone="danger">{add.error.message}</Alert> : null}
          <Field id="member-email" label="E-mail">
            <Input id="member-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field id="member-role" label="Role">
            <RoleSelect id="member-role" value={role} onChange={setRole} />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={add.isPending || !email.trim()}>
              Add member
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
