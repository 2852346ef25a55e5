import { Badge, type BadgeTone } from '@/components/ui/badge'
import type { OperationStatus } from '@/data/operations/operation-types'

const TONES: Record<OperationStatus, BadgeTone> = {
  pending: 'neutral',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
}

export function OperationStatusBadge({ status }: { status: OperationStatus }) {
  return (
    <Badge tone={TONES[status] ?? 'neutral'} className="capitalize">
      {status}
    </Badge>
  )
}
