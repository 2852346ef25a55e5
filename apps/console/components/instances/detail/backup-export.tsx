'use client'
import { Download } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { useBackupExportMutation } from '@/data/backups/backup-export-mutation'
import type { Backup } from '@/data/backups/backups-query'
import { rdbExportDownloadUrl, useRdbExportQuery } from '@/data/backups/rdb-export-query'
import { formatBytes, formatDateTime, formatInstant } from '../format'

/**
 * "Export as RDB" for one succeeded backup: asks for the file, follows its making, then offers
 * it as a download (the API streams it until it expires, 24 hours after it was asked for).
 */
export function BackupExport({ projectId, backup, readOnly }: { projectId: string; backup: Backup; readOnly: boolean }) {
  const [exportId, setExportId] = useState<string>()
  const start = useBackupExportMutation(projectId)
  const { data: made, error } = useRdbExportQuery(projectId, exportId)
  const label = formatInstant(backup.end_time)
  if (made?.status === 'succeeded') {
    return (
      <a
        href={rdbExportDownloadUrl(projectId, made.id)}
        download
        className="inline-flex items-center gap-1 text-sm font-medium text-brand hover:underline"
        aria-label={`Download the RDB file of the backup of ${label}`}
        title={`Until ${formatDateTime(made.expires_at)}`}
      >
        <Download className="size-4" aria-hidden /> Download RDB{made.size_bytes != null ? ` (${formatBytes(made.size_bytes)})` : ''}
      </a>
    )
  }
  const failure = made?.status === 'failed' ? made.error?.message ?? 'The export failed.' : (start.error ?? error)?.message
  const working = start.isPending || made?.status === 'pending' || made?.status === 'running'
  return (
    <span className="inline-flex flex-col items-end">
      <Button
        variant="secondary"
        size="sm"
        disabled={readOnly || working}
        onClick={() => start.mutate(backup.id, { onSuccess: (accepted) => setExportId(accepted.export.id) })}
        aria-label={`Export the backup of ${label} as RDB`}
      >
        {working ? 'Exporting…' : 'Export as RDB'}
      </Button>
      {failure ? <span className="mt-1 max-w-xs text-xs text-danger" role="alert">{failure}</span> : null}
    </span>
  )
}
