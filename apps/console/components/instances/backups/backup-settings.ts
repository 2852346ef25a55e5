// The daily backup window and the retention as the console edits them (create form and the
// Backups tab), checked with the rules the API applies (@basalt/api-client/rules), whose
// messages they show.
import {
  BACKUP_RETENTION_DAYS_MAX,
  BACKUP_RETENTION_DAYS_MIN,
  isBackupRetentionDays,
  parseBackupWindow,
} from '@basalt/api-client/rules'

export { BACKUP_RETENTION_DAYS_DEFAULT, BACKUP_WINDOW_DEFAULT } from '@basalt/api-client/rules'

export interface BackupSettingsValues {
  /** `HH:MM-HH:MM`, UTC. */
  backupWindow: string
  /** Days, as the input holds them. */
  retentionDays: string
}

export type BackupSettingsErrors = Partial<Record<'backupWindow' | 'retentionDays', string>>

export const RETENTION_HINT = `${BACKUP_RETENTION_DAYS_MIN}–${BACKUP_RETENTION_DAYS_MAX} days; 0 takes no automatic backups. Manual backups are kept until you delete them.`

export function validateBackupSettings(values: BackupSettingsValues): BackupSettingsErrors {
  const errors: BackupSettingsErrors = {}
  const window = parseBackupWindow(values.backupWindow.trim())
  if ('error' in window) errors.backupWindow = `The backup window ${window.error}.`
  const days = values.retentionDays.trim() ? Number(values.retentionDays) : Number.NaN
  if (!isBackupRetentionDays(days)) errors.retentionDays = `Keep automatic backups ${BACKUP_RETENTION_DAYS_MIN}–${BACKUP_RETENTION_DAYS_MAX} days (a whole number).`
  return errors
}

/** The API's fields for valid values. */
export function toBackupSettings(values: BackupSettingsValues): { backup_window: string; backup_retention_days: number } {
  return { backup_window: values.backupWindow.trim(), backup_retention_days: Number(values.retentionDays) }
}
