import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { InstanceHealth, InstanceStatus } from '@/data/instances/instance-query'

const STATUS: Record<InstanceStatus, { label: string; tone: BadgeTone }> = {
  creating: { label: 'Creating', tone: 'info' },
  running: { label: 'Running', tone: 'success' },
  modifying: { label: 'Modifying', tone: 'info' },
  restarting: { label: 'Restarting', tone: 'info' },
  deleting: { label: 'Deleting', tone: 'warning' },
  deleted: { label: 'Deleted', tone: 'neutral' },
  create_failed: { label: 'Create failed', tone: 'danger' },
  error: { label: 'Error', tone: 'danger' },
}

const HEALTH: Record<InstanceHealth, { label: string; tone: BadgeTone }> = {
  healthy: { label: 'Healthy', tone: 'success' },
  degraded: { label: 'Degraded', tone: 'warning' },
  unavailable: { label: 'Unavailable', tone: 'danger' },
}

export function statusLabel(status: InstanceStatus): string {
  return STATUS[status]?.label ?? status
}

export function StatusBadge({ status }: { status: InstanceStatus }) {
  const { label, tone } = STATUS[status] ?? { label: status, tone: 'neutral' as const }
  const busy = status === 'creating' || status === 'modifying' || status === 'restarting' || status === 'deleting'
  return (
    <Badge tone={tone} aria-label={`Status: ${label}`}>
      <span className={busy ? 'size-1.5 animate-pulse rounded-full bg-current' : 'size-1.5 rounded-full bg-current'} />
      {label}
    </Badge>
  )
}

/** The health monitor's verdict; its reason (why not healthy) is shown beside it. */
export function HealthBadge({ health, reason }: { health: InstanceHealth | null | undefined; reason?: string | null }) {
  if (!health) return <span className="text-xs text-muted">—</span>
  const { label, tone } = HEALTH[health] ?? { label: health, tone: 'neutral' as const }
  return (
    <span className="inline-flex items-center gap-1.5">
      <Badge tone={tone} aria-label={`Health: ${label}`} title={reason ?? undefined}>
        {label}
      </Badge>
      {reason ? <span className="text-xs text-muted">{reason}</span> : null}
    </span>
  )
}
