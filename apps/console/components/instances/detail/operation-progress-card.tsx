'use client'
import { Badge } from '@/components/ui/badge'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { useOperationEvents } from '@/data/operations/operation-events'
import type { Operation } from '@/data/operations/operation-types'
import { OperationStatusBadge } from './operation-status-badge'

/** Live progress of the instance's current operation, streamed from its events endpoint. */
export function OperationProgressCard({
  projectId,
  instanceId,
  operation,
}: {
  projectId: string
  instanceId: string
  operation: Operation
}) {
  const { progress, connected } = useOperationEvents(projectId, instanceId, operation)
  const done = progress.status === 'succeeded' || progress.status === 'failed'
  return (
    <Card aria-label="Operation progress">
      <CardHeader>
        <CardTitle className="capitalize">{operation.type} operation</CardTitle>
        <span className="flex items-center gap-2">
          {!done ? (
            <Badge tone={connected ? 'success' : 'neutral'}>{connected ? 'Live' : 'Connecting…'}</Badge>
          ) : null}
          <OperationStatusBadge status={progress.status} />
        </span>
      </CardHeader>
      <CardBody className="space-y-3">
        <div className="flex items-center gap-3">
          <Progress value={progress.progress} aria-label="Operation progress" className="flex-1" />
          <span className="w-10 text-right text-sm tabular-nums">{Math.round(progress.progress)}%</span>
        </div>
        <p className="text-sm">
          <span className="text-muted">Current step: </span>
          {progress.currentStep ?? (progress.status === 'pending' ? 'Waiting for a worker' : '—')}
        </p>
        {progress.error ? <p className="text-sm text-danger">{progress.error}</p> : null}
        {progress.log.length ? (
          <ol aria-label="Operation log" className="max-h-48 space-y-0.5 overflow-y-auto rounded-md bg-canvas p-2 font-mono text-xs">
            {progress.log.map((line, i) => (
              <li key={i}>
                {line.step ? <span className="text-muted">[{line.step}] </span> : null}
                {line.message}
              </li>
            ))}
          </ol>
        ) : null}
      </CardBody>
    </Card>
  )
}
