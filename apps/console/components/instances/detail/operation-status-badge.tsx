import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { OperationStatus } from '@/data/operations/operation-types'

/** An operation's status, or a benchmark run's (which can also be cancelled). */
type Status = OperationStatus | 'cancelled'

const TONES: Record<Status, BadgeTone> = {
  pending: 'neutral',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
}

export function OperationStatusBadge({ status }: { status: Status }) {
  return (
    <Badge tone={TONES[status] ?? 'neutral'} className="capitalize">
      {status}
    </Badge>
  )
}
