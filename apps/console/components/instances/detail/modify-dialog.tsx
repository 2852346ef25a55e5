'use client'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useInstanceTypesQuery } from '@/data/catalog/instance-types-query'
import type { Instance } from '@/data/instances/instance-query'
import { useInstanceUpdateMutation } from '@/data/instances/instance-update-mutation'
import { InstanceTypePicker } from '../create/instance-type-picker'

/** What a resize may ask for: another type, a disk no smaller than today's and within the type's range. */
export function resizeProblem(
  instance: Pick<Instance, 'disk_gib'>,
  type: { id: string; disk_gib_min: number; disk_gib_max: number } | undefined,
  diskText: string,
): string | null {
  if (!type) return 'Choose an instance type.'
  const disk = Number(diskText)
  if (!diskText.trim() || !Number.isInteger(disk)) return 'Enter the disk size as a whole number of GiB.'
  if (disk < instance.disk_gib) return `Disks only grow: at least ${instance.disk_gib} GiB.`
  if (disk < type.disk_gib_min || disk > type.disk_gib_max) return `${type.id} takes ${type.disk_gib_min}–${type.disk_gib_max} GiB of disk.`
  return null
}

export function ModifyDialog({
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
  const types = useInstanceTypesQuery()
  const update = useInstanceUpdateMutation(projectId, instance.id)
  const [typeId, setTypeId] = useState(instance.instance_type)
  const [disk, setDisk] = useState(String(instance.disk_gib))
  const [submitted, setSubmitted] = useState(false)
  const type = types.data?.find((t) => t.id === typeId)
  const problem = resizeProblem(instance, type, disk)
  // After a failed modify (`error`), the instance's own sizing is a change too: it sizes the VMs back.
  const converge = instance.status === 'error'
  const unchanged = !converge && typeId === instance.instance_type && Number(disk) === instance.disk_gib

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (problem || unchanged) return
    update.mutate(
      {
        ...(converge || typeId !== instance.instance_type ? { instance_type: typeId } : {}),
        ...(Number(disk) !== instance.disk_gib ? { disk_gib: Number(disk) } : {}),
      },
      { onSuccess: () => onOpenChange(false) },
    )
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          setTypeId(instance.instance_type)
          setDisk(String(instance.disk_gib))
          setSubmitted(false)
          update.reset()
        }
        onOpenChange(next)
      }}
    >
      <DialogContent
        title={`Modify ${instance.name}`}
        description="Resizing moves the instance to the new size; it stays reachable at the same endpoint."
        className="w-[min(56rem,calc(100vw-2rem))]"
      >
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          {update.error ? <Alert tone="danger">{update.error.message}</Alert> : null}
          <InstanceTypePicker types={types.data ?? []} value={typeId} region={instance.region} onChange={setTypeId} />
          <div className="max-w-xs">
            <Field id="modify-disk" label="Disk (GiB)" error={submitted && problem ? problem : undefined}
              hint={type ? `${Math.max(type.disk_gib_min, instance.disk_gib)}–${type.disk_gib_max} GiB.` : undefined}>
              <Input id="modify-disk" type="number" inputMode="numeric" value={disk} onChange={(e) => setDisk(e.target.value)} />
            </Field>
          </div>
          <div className="flex items-center justify-end gap-3">
            {submitted && unchanged ? <span className="text-xs text-muted">Nothing to change.</span> : null}
            <Button type="submit" disabled={update.isPending}>
              Apply changes
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
