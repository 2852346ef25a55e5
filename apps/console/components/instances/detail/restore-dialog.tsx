'use client'
import { useRouter } from 'next/navigation'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useAllowlistQuery } from '@/data/allowlist/allowlist-query'
import type { Backup } from '@/data/backups/backups-query'
import { useRestoreWindowQuery } from '@/data/backups/restore-window-query'
import { useInstanceTypesQuery } from '@/data/catalog/instance-types-query'
import { useInstanceCreateMutation } from '@/data/instances/instance-create-mutation'
import type { Instance } from '@/data/instances/instance-query'
import { handOverPassword } from '@/lib/handed-over-password'
import { PointInTimeField } from '../backups/point-in-time-field'
import { inputToPoint, pointProblem, pointToInput, restorableRange } from '../backups/restore-point'
import { restoreRequest, type RestoreFrom } from '../backups/restore-request'
import { instanceNameProblem } from '../create/validation'
import { formatInstant } from '../format'

/** What a restore starts from: one succeeded backup, or a point in the source's window. */
export type RestoreSource = { kind: 'backup'; backup: Backup } | { kind: 'point' }

/**
 * Creates a new instance from `source`'s data, shaped like it, and goes to its page (where the
 * new default password is shown once).
 */
export function RestoreDialog({
  projectId,
  source,
  from,
  onClose,
}: {
  projectId: string
  source: Instance
  /** null: closed. */
  from: RestoreSource | null
  onClose: () => void
}) {
  return (
    <Dialog open={from !== null} onOpenChange={(open) => !open && onClose()}>
      {from ? (
        <DialogContent
          title={from.kind === 'point' ? 'Restore to a point in time' : 'Restore a backup'}
          description={`A new instance with ${source.name}'s data, in ${source.region}, with its architecture, TLS setting, allowlist and parameters. ${source.name} is left as it is.`}
        >
          <RestoreForm projectId={projectId} source={source} from={from} />
        </DialogContent>
      ) : null}
    </Dialog>
  )
}

function RestoreForm({ projectId, source, from }: { projectId: string; source: Instance; from: RestoreSource }) {
  const router = useRouter()
  const types = useInstanceTypesQuery()
  const allowlist = useAllowlistQuery(projectId, source.id)
  const restoreWindow = useRestoreWindowQuery(projectId, from.kind === 'point' ? source.id : undefined)
  const create = useInstanceCreateMutation(projectId)
  const [name, setName] = useState(`${source.name}-restored`.slice(0, 63))
  const [instanceType, setInstanceType] = useState(source.instance_type)
  const range = restorableRange(restoreWindow.data)
  const [point, setPoint] = useState('')
  const [submitted, setSubmitted] = useState(false)
  // The latest point is the default once the window is known.
  const shownPoint = point || (range ? pointToInput(range.latest) : '')
  const offered = types.data?.filter((t) => !t.regions.length || t.regions.includes(source.region)) ?? []
  const type = types.data?.find((t) => t.id === instanceType)
  const nameError = instanceNameProblem(name)
  const pointError = from.kind === 'point' ? pointProblem(shownPoint, restoreWindow.data) : null

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (nameError || pointError || !allowlist.data) return
    const restoreFrom: RestoreFrom =
      from.kind === 'backup' ? { backup_id: from.backup.id } : { source_instance_id: source.id, point_in_time: inputToPoint(shownPoint)! }
    create.mutate(restoreRequest(source, { name, type, instanceType }, restoreFrom, allowlist.data.items), {
      onSuccess: (created) => {
        handOverPassword(created.instance.id, created.default_user.password)
        router.push(`/projects/${projectId}/instances/${created.instance.id}`)
      },
    })
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label={from.kind === 'point' ? 'Restore to a point in time' : 'Restore a backup'}>
      {create.error ? <Alert tone="danger">{create.error.message}</Alert> : null}
      {allowlist.error ? <Alert tone="danger">Could not load the source's allowlist: {allowlist.error.message}</Alert> : null}
      {from.kind === 'backup' ? (
        <p className="text-sm">
          The data as it was at <strong className="font-medium">{formatInstant(from.backup.end_time)}</strong>, the backup's consistent
          point.
        </p>
      ) : (
        <PointInTimeField
          restoreWindow={restoreWindow.data}
          loading={restoreWindow.isPending}
          value={shownPoint}
          onChange={setPoint}
          error={submitted && pointError ? pointError : undefined}
        />
      )}
      <Field id="restore-name" label="New instance name" error={submitted && nameError ? nameError : undefined}>
        <Input id="restore-name" value={name} aria-invalid={(submitted && Boolean(nameError)) || undefined} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field id="restore-type" label="Instance type" hint={type ? `${type.vcpu} vCPU, ${type.memory_gib} GiB memory.` : undefined}>
        <Select value={instanceType} onValueChange={setInstanceType}>
          <SelectTrigger id="restore-type">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {(offered.some((t) => t.id === source.instance_type) ? offered : [...offered, { id: source.instance_type }]).map((t) => (
              <SelectItem key={t.id} value={t.id}>
                {t.id}
                {t.id === source.instance_type ? ' (the source’s)' : ''}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={create.isPending || allowlist.isPending}>
          {create.isPending ? 'Creating…' : 'Create restored instance'}
        </Button>
      </div>
    </form>
  )
}
