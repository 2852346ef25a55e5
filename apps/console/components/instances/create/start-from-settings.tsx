'use client'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { OptionsSelect } from '@/components/ui/options-select'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { useInstanceBackupsQuery } from '@/data/backups/backups-query'
import { useRestoreWindowQuery } from '@/data/backups/restore-window-query'
import type { Instance } from '@/data/instances/instance-query'
import { useInstancesQuery } from '@/data/instances/instances-query'
import { BackupSettingsFields } from '../backups/backup-settings-fields'
import { PointInTimeField } from '../backups/point-in-time-field'
import { RdbFileField } from '../backups/rdb-file-field'
import { formatBytes, formatInstant } from '../format'
import type { InstanceFormErrors, InstanceFormValues, StartFrom } from './validation'

const START_FROM: { value: StartFrom; label: string }[] = [
  { value: 'empty', label: 'Empty' },
  { value: 'backup', label: 'A backup' },
  { value: 'point', label: 'A point in time of an instance' },
  { value: 'rdb', label: 'An RDB file' },
]

/** Where the new instance's data comes from, and its automatic backups. */
export function StartFromSettings({
  projectId,
  values,
  onChange,
  errors,
}: {
  projectId: string
  values: InstanceFormValues
  onChange: (patch: Partial<InstanceFormValues>) => void
  errors: InstanceFormErrors
}) {
  // From a backup or a point in time: of which instance.
  const restoring = values.startFrom === 'backup' || values.startFrom === 'point'
  const instances = useInstancesQuery(projectId)
  const sources = instances.data?.filter((i) => i.status !== 'creating' && i.status !== 'create_failed') ?? []
  // A restore takes the source's size unless changed below: the data must fit the disk.
  const chooseSource = (source: Instance | undefined) =>
    onChange({ restoreSourceId: source?.id ?? '', restoreBackupId: '', restorePoint: '', ...(source ? { instanceType: source.instance_type, diskGib: String(source.disk_gib) } : {}) })
  return (
    <Card>
      <CardHeader>
        <CardTitle>Data and backups</CardTitle>
      </CardHeader>
      <CardBody className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="start-from" label="Start from">
            <OptionsSelect id="start-from" value={values.startFrom} options={START_FROM} onChange={(startFrom) => onChange({ startFrom })} />
          </Field>
          {restoring ? (
            <Field id="restore-source" label="Source instance" error={errors.restoreSource}>
              <Select value={values.restoreSourceId} onValueChange={(id) => chooseSource(sources.find((s) => s.id === id))}>
                <SelectTrigger id="restore-source" aria-invalid={Boolean(errors.restoreSource) || undefined}>
                  <SelectValue placeholder={instances.isPending ? 'Loading instances…' : 'Choose an instance'} />
                </SelectTrigger>
                <SelectContent>
                  {sources.map((s) => (
                    <SelectItem key={s.id} value={s.id}>
                      {s.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </Field>
          ) : null}
          {values.startFrom === 'backup' && values.restoreSourceId ? (
            <BackupChoice projectId={projectId} values={values} onChange={onChange} error={errors.restoreBackup} />
          ) : null}
          {values.startFrom === 'point' && values.restoreSourceId ? (
            <PointChoice projectId={projectId} values={values} onChange={onChange} error={errors.restorePoint} />
          ) : null}
        </div>
        {values.startFrom === 'rdb' ? <RdbFileField projectId={projectId} values={values} onChange={onChange} error={errors.rdbFile} /> : null}
        <BackupSettingsFields values={values} onChange={onChange} errors={errors} />
      </CardBody>
    </Card>
  )
}

function BackupChoice({ projectId, values, onChange, error }: { projectId: string; values: InstanceFormValues; onChange: (patch: Partial<InstanceFormValues>) => void; error?: string }) {
  const backups = useInstanceBackupsQuery(projectId, values.restoreSourceId)
  const succeeded = backups.data?.filter((b) => b.status === 'succeeded') ?? []
  return (
    <Field id="restore-backup" label="Backup" error={error} hint={backups.data && !succeeded.length ? 'This instance has no succeeded backup.' : undefined}>
      <Select value={values.restoreBackupId} onValueChange={(restoreBackupId) => onChange({ restoreBackupId })}>
        <SelectTrigger id="restore-backup" aria-invalid={Boolean(error) || undefined}>
          <SelectValue placeholder={backups.isPending ? 'Loading backups…' : 'Choose a backup'} />
        </SelectTrigger>
        <SelectContent>
          {succeeded.map((b) => (
            <SelectItem key={b.id} value={b.id}>
              {formatInstant(b.end_time)} · {b.kind} · {formatBytes(b.size_bytes)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  )
}

function PointChoice({ projectId, values, onChange, error }: { projectId: string; values: InstanceFormValues; onChange: (patch: Partial<InstanceFormValues>) => void; error?: string }) {
  const restoreWindow = useRestoreWindowQuery(projectId, values.restoreSourceId)
  return (
    <PointInTimeField
      restoreWindow={restoreWindow.data}
      loading={restoreWindow.isPending}
      value={values.restorePoint}
      onChange={(restorePoint) => onChange({ restorePoint })}
      error={error}
    />
  )
}
