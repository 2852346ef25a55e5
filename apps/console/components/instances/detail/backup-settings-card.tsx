'use client'
import { useEffect, useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import type { Instance } from '@/data/instances/instance-query'
import { useInstanceUpdateMutation } from '@/data/instances/instance-update-mutation'
import { BackupSettingsFields } from '../backups/backup-settings-fields'
import { toBackupSettings, validateBackupSettings, type BackupSettingsValues } from '../backups/backup-settings'

const valuesOf = (instance: Instance): BackupSettingsValues => ({
  backupWindow: instance.backup_window,
  retentionDays: String(instance.backup_retention_days),
})

/** The daily backup's window and how long automatic backups are kept, changed with PATCH (nothing to deploy). */
export function BackupSettingsCard({ projectId, instance, readOnly }: { projectId: string; instance: Instance; readOnly: boolean }) {
  const update = useInstanceUpdateMutation(projectId, instance.id)
  const [values, setValues] = useState<BackupSettingsValues>(() => valuesOf(instance))
  const [submitted, setSubmitted] = useState(false)
  useEffect(() => setValues(valuesOf(instance)), [instance.backup_window, instance.backup_retention_days]) // eslint-disable-line react-hooks/exhaustive-deps
  const errors = validateBackupSettings(values)
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(errors).length) return
    update.mutate(toBackupSettings(values))
  }
  return (
    <Card aria-labelledby="backup-settings-title" className="max-w-3xl">
      <CardHeader>
        <CardTitle id="backup-settings-title">Automatic backups</CardTitle>
      </CardHeader>
      <CardBody>
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Automatic backups">
          <BackupSettingsFields values={values} onChange={(patch) => setValues((v) => ({ ...v, ...patch }))} errors={submitted ? errors : {}} />
          {update.error ? <Alert tone="danger">{update.error.message}</Alert> : null}
          {update.isSuccess ? <Alert tone="success">Backup settings saved.</Alert> : null}
          <div className="flex justify-end">
            <Button type="submit" disabled={readOnly || update.isPending}>
              Save backup settings
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  )
}
