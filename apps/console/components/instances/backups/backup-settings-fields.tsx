'use client'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { RETENTION_HINT, type BackupSettingsErrors, type BackupSettingsValues } from './backup-settings'

/** The window and retention inputs, shared by the create form and the Backups tab. */
export function BackupSettingsFields({
  values,
  onChange,
  errors,
}: {
  values: BackupSettingsValues
  onChange: (patch: Partial<BackupSettingsValues>) => void
  errors: BackupSettingsErrors
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        id="backup-window"
        label="Daily backup window (UTC)"
        hint="HH:MM-HH:MM, at least an hour; the automatic backup of the day is taken inside it."
        error={errors.backupWindow}
      >
        <Input
          id="backup-window"
          value={values.backupWindow}
          placeholder="03:00-04:00"
          aria-invalid={Boolean(errors.backupWindow) || undefined}
          onChange={(e) => onChange({ backupWindow: e.target.value })}
        />
      </Field>
      <Field id="backup-retention" label="Keep automatic backups (days)" hint={RETENTION_HINT} error={errors.retentionDays}>
        <Input
          id="backup-retention"
          type="number"
          inputMode="numeric"
          value={values.retentionDays}
          aria-invalid={Boolean(errors.retentionDays) || undefined}
          onChange={(e) => onChange({ retentionDays: e.target.value })}
        />
      </Field>
    </div>
  )
}
