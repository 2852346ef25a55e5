'use client'
import { RotateCw, SlidersHorizontal, Trash2 } from 'lucide-react'
import { useRouter } from 'next/navigation'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useInstanceDeleteMutation } from '@/data/instances/instance-delete-mutation'
import type { Instance } from '@/data/instances/instance-query'
import { useInstanceRestartMutation } from '@/data/instances/instance-restart-mutation'
import { useProjectRole } from '@/data/projects/projects-query'
import { ModifyDialog } from './modify-dialog'

export function InstanceActions({ projectId, instance }: { projectId: string; instance: Instance }) {
  const restart = useInstanceRestartMutation(projectId, instance.id)
  const [deleting, setDeleting] = useState(false)
  const [modifying, setModifying] = useState(false)
  // A delete that failed leaves the instance `deleting` with its fault: Delete runs it again.
  const deleteFailed = instance.status === 'deleting' && instance.fault !== null
  const gone = (instance.status === 'deleting' && !deleteFailed) || instance.status === 'deleted'
  // After a failed modify (`error`) the dialog retries it, or sizes the instance back.
  const modifiable = instance.status === 'running' || instance.status === 'error'
  const readOnly = useProjectRole(projectId) === 'viewer'
  return (
    <>
      {restart.error ? <span className="text-xs text-danger">{restart.error.message}</span> : null}
      <Button variant="secondary" onClick={() => setModifying(true)} disabled={readOnly || !modifiable}>
        <SlidersHorizontal className="size-4" aria-hidden /> Modify
      </Button>
      <Button
        variant="secondary"
        onClick={() => restart.mutate()}
        disabled={readOnly || instance.status !== 'running' || restart.isPending}
      >
        <RotateCw className="size-4" aria-hidden /> Restart
      </Button>
      <Button variant="secondary" onClick={() => setDeleting(true)} disabled={readOnly || gone} className="text-danger">
        <Trash2 className="size-4" aria-hidden /> {deleteFailed ? 'Retry delete' : 'Delete'}
      </Button>
      <DeleteDialog projectId={projectId} instance={instance} open={deleting} onOpenChange={setDeleting} />
      <ModifyDialog projectId={projectId} instance={instance} open={modifying} onOpenChange={setModifying} />
    </>
  )
}

function DeleteDialog({
  projectId,
  instance,
  open,
  onOpenChange,
}: {
  projectId: string
  instance: Instance
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const router = useRouter()
  const remove = useInstanceDeleteMutation(projectId, instance.id)
  const [confirm, setConfirm] = useState('')
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        // Each attempt starts blank: the name is typed again and an old refusal is cleared.
        if (!next) {
          setConfirm('')
          remove.reset()
        }
        onOpenChange(next)
      }}
    >
      <DialogContent
        title={`Delete ${instance.name}?`}
        description="The VM, its disk and all data are destroyed. This cannot be undone."
      >
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault()
            remove.mutate(undefined, { onSuccess: () => router.push(`/projects/${projectId}/instances`) })
          }}
        >
          {instance.deletion_protection ? (
            <Alert tone="warning">Deletion protection is on. Turn it off before deleting this instance.</Alert>
          ) : null}
          {remove.error ? <Alert tone="danger">{remove.error.message}</Alert> : null}
          <Field id="confirm-name" label={`Type ${instance.name} to confirm`}>
            <Input id="confirm-name" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="off" />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" variant="danger" disabled={confirm !== instance.name || remove.isPending}>
              Delete instance
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
