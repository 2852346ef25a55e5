'use client'
import { DatabaseBackup, History } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Badge, type BadgeTone } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useBackupCreateMutation } from '@/data/backups/backup-create-mutation'
import { useBackupDeleteMutation } from '@/data/backups/backup-delete-mutation'
import { useInstanceBackupsQuery, type Backup, type BackupStatus } from '@/data/backups/backups-query'
import { useRestoreWindowQuery } from '@/data/backups/restore-window-query'
import type { Instance } from '@/data/instances/instance-query'
import { queryKeys } from '@/data/keys'
import { useOperationQuery } from '@/data/operations/operation-query'
import { useProjectRole } from '@/data/projects/projects-query'
import { restorableRange } from '../backups/restore-point'
import { formatBytes, formatDateTime, formatInstant } from '../format'
import { BackupExport } from './backup-export'
import { BackupSettingsCard } from './backup-settings-card'
import { OperationProgressCard } from './operation-progress-card'
import { RestoreDialog, type RestoreSource } from './restore-dialog'

const KIND_LABELS: Record<Backup['kind'], string> = {
  manual: 'Manual',
  automatic: 'Automatic',
  final: 'Final (at delete)',
}

const STATUS_TONES: Record<BackupStatus, BadgeTone> = {
  pending: 'neutral',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  deleting: 'warning',
}

/** A manual backup is taken of a running instance, or of one in error (the API's rule). */
const BACKUP_ALLOWED = new Set<Instance['status']>(['running', 'error'])

export function BackupsTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  const readOnly = useProjectRole(projectId) === 'viewer'
  const [restoring, setRestoring] = useState<RestoreSource | null>(null)
  return (
    <div className="space-y-5">
      <RestoreWindowCard projectId={projectId} instance={instance} readOnly={readOnly} onRestore={() => setRestoring({ kind: 'point' })} />
      <BackupsCard projectId={projectId} instance={instance} readOnly={readOnly} onRestore={(backup) => setRestoring({ kind: 'backup', backup })} />
      <BackupSettingsCard projectId={projectId} instance={instance} readOnly={readOnly} />
      <RestoreDialog projectId={projectId} source={instance} from={restoring} onClose={() => setRestoring(null)} />
    </div>
  )
}

function RestoreWindowCard({ projectId, instance, readOnly, onRestore }: { projectId: string; instance: Instance; readOnly: boolean; onRestore: () => void }) {
  const { data: restoreWindow, error, isPending } = useRestoreWindowQuery(projectId, instance.id)
  const range = restorableRange(restoreWindow)
  return (
    <Card aria-labelledby="restore-window-title">
      <CardHeader>
        <CardTitle id="restore-window-title">Restorable window</CardTitle>
        <Button variant="secondary" onClick={onRestore} disabled={readOnly || !range}>
          <History className="size-4" aria-hidden /> Restore to a point in time
        </Button>
      </CardHeader>
      <CardBody>
        {error ? <Alert tone="danger">Could not load the restorable window: {error.message}</Alert> : null}
        {isPending ? (
          <p className="text-sm text-muted">Loading the restorable window…</p>
        ) : !range ? (
          <p className="text-sm text-muted">Nothing to restore yet: the window opens when the first backup has succeeded.</p>
        ) : (
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted">Earliest</dt>
            <dd aria-label="Earliest restorable point">{formatInstant(range.earliest)}</dd>
            <dt className="text-muted">Latest</dt>
            <dd aria-label="Latest restorable point">{formatInstant(range.latest)}</dd>
            <dt className="text-muted">Timelines</dt>
            <dd aria-label="Timelines">
              {restoreWindow?.timelines.map((span) => (
                <div key={span.timeline}>
                  Timeline {span.timeline}: {formatInstant(span.earliest)} to {formatInstant(span.latest)}
                </div>
              ))}
            </dd>
            <dt className="text-muted">Gaps</dt>
            <dd aria-label="Restore gaps">
              {restoreWindow?.gaps.length
                ? restoreWindow.gaps.map((gap) => (
                    <div key={gap.from} className="text-warning">
                      {formatInstant(gap.from)} to {formatInstant(gap.to)}: not restorable exactly (a failover ended timeline {gap.ended_timeline})
                    </div>
                  ))
                : 'None: every second in the window restores exactly'}
            </dd>
            <dt className="text-muted">Archive lag</dt>
            <dd>{restoreWindow?.archive_lag_seconds == null ? '—' : `${restoreWindow.archive_lag_seconds} s`}</dd>
            <dt className="text-muted">Last backup</dt>
            <dd>{formatDateTime(restoreWindow?.last_backup_at)}</dd>
          </dl>
        )}
      </CardBody>
    </Card>
  )
}

function BackupsCard({
  projectId,
  instance,
  readOnly,
  onRestore,
}: {
  projectId: string
  instance: Instance
  readOnly: boolean
  onRestore: (backup: Backup) => void
}) {
  const { data: backups, error, isPending } = useInstanceBackupsQuery(projectId, instance.id)
  const create = useBackupCreateMutation(projectId, instance.id)
  const remove = useBackupDeleteMutation(projectId, instance.id)
  // The progress of the backup asked for here, or of one still under way when the tab opens.
  const unfinished = backups?.find((b) => b.status === 'pending' || b.status === 'running')
  const started = create.data?.operation
  const loaded = useOperationQuery(!started && unfinished?.operation_id ? unfinished.operation_id : null)
  const operation = started ?? (unfinished ? loaded.data : undefined)
  return (
    <div className="space-y-5">
      {operation ? <OperationProgressCard operation={operation} refreshes={queryKeys.instances.backups(projectId, instance.id)} /> : null}
      <Card aria-labelledby="backups-title">
        <CardHeader>
          <CardTitle id="backups-title">Backups</CardTitle>
          <Button onClick={() => create.mutate()} disabled={readOnly || !BACKUP_ALLOWED.has(instance.status) || create.isPending || Boolean(unfinished)}>
            <DatabaseBackup className="size-4" aria-hidden /> Back up now
          </Button>
        </CardHeader>
        {create.error || remove.error ? (
          <CardBody>
            <Alert tone="danger">{(create.error ?? remove.error)?.message}</Alert>
          </CardBody>
        ) : null}
        {error ? (
          <CardBody>
            <Alert tone="danger">Could not load backups: {error.message}</Alert>
          </CardBody>
        ) : isPending ? (
          <p className="px-5 py-8 text-center text-sm text-muted">Loading backups…</p>
        ) : !backups?.length ? (
          <p className="px-5 py-8 text-center text-sm text-muted">No backup yet. A manual backup is kept until you delete it.</p>
        ) : (
          <Table aria-label="Backups">
            <THead>
              <tr>
                <Th>Kind</Th>
                <Th>Status</Th>
                <Th>Restorable from</Th>
                <Th className="text-right">Size</Th>
                <Th className="text-right">Segments</Th>
                <Th>Created</Th>
                <Th>Expires</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody>
              {backups.map((backup) => (
                <BackupRow
                  key={backup.id}
                  projectId={projectId}
                  backup={backup}
                  readOnly={readOnly}
                  deleting={remove.isPending && remove.variables === backup.id}
                  onRestore={() => onRestore(backup)}
                  onDelete={() => {
                    if (window.confirm(`Delete the ${backup.kind} backup of ${formatDateTime(backup.created_at)}? It cannot be restored afterwards.`))
                      remove.mutate(backup.id)
                  }}
                />
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  )
}

function BackupRow({
  projectId,
  backup,
  readOnly,
  deleting,
  onRestore,
  onDelete,
}: {
  projectId: string
  backup: Backup
  readOnly: boolean
  deleting: boolean
  onRestore: () => void
  onDelete: () => void
}) {
  const finished = backup.status === 'succeeded' || backup.status === 'failed'
  return (
    <Tr>
      <Td>{KIND_LABELS[backup.kind] ?? backup.kind}</Td>
      <Td>
        <Badge tone={STATUS_TONES[backup.status] ?? 'neutral'} className="capitalize">
          {backup.status}
        </Badge>
        {backup.error ? <p className="mt-1 max-w-xs text-xs text-danger">{backup.error.message}</p> : null}
      </Td>
      <Td>{formatInstant(backup.end_time)}</Td>
      <Td className="text-right tabular-nums">{backup.status === 'succeeded' ? formatBytes(backup.size_bytes) : '—'}</Td>
      <Td className="text-right tabular-nums">{backup.status === 'succeeded' ? backup.segments : '—'}</Td>
      <Td className="text-muted">{formatDateTime(backup.created_at)}</Td>
      <Td className="text-muted">{backup.expires_at ? formatDateTime(backup.expires_at) : 'Kept until deleted'}</Td>
      <Td className="space-x-1 text-right whitespace-nowrap">
        {backup.status === 'succeeded' ? <BackupExport projectId={projectId} backup={backup} readOnly={readOnly} /> : null}
        {backup.status === 'succeeded' ? (
          <Button variant="secondary" size="sm" disabled={readOnly} onClick={onRestore} aria-label={`Restore the backup of ${formatInstant(backup.end_time)}`}>
            Restore
          </Button>
        ) : null}
        {finished ? (
          <Button variant="ghost" size="sm" className="text-danger" disabled={readOnly || deleting} onClick={onDelete} aria-label={`Delete the backup of ${formatInstant(backup.created_at)}`}>
            Delete
          </Button>
        ) : null}
      </Td>
    </Tr>
  )
}
