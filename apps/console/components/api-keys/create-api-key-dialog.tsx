'use client'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useApiKeyCreateMutation, type ApiKeyCreateResult } from '@/data/api-keys/api-key-create-mutation'

export function CreateApiKeyDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onCreated: (key: ApiKeyCreateResult) => void
}) {
  const create = useApiKeyCreateMutation()
  const [name, setName] = useState('')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (key) => {
          onCreated(key)
          onOpenChange(false)
          setName('')
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Create API key" description="Name it after what will use it, e.g. terraform-ci.">
        <form onSubmit={onSubmit} className="space-y-4">
          {create.error ? <Alert tone="danger">{create.error.message}</Alert> : null}
          <Field id="api-key-name" label="Key name">
            <Input id="api-key-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={create.isPending || !name.trim()}>
              Create key
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
