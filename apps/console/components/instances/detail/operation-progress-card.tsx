'use client'
import type { QueryKey } from '@tanstack/react-query'
import { Check, Circle, LoaderCircle, X } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Badge } from '@/components/ui/badge'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Progress } from '@/components/ui/progress'
import { useOperationEvents } from '@/data/operations/operation-events'
import type { Operation, OperationStep } from '@/data/operations/operation-types'
import { OperationStatusBadge } from './operation-status-badge'

const STEP_ICON = {
  pending: <Circle className="size-3.5 text-muted" aria-hidden />,
  running: <LoaderCircle className="size-3.5 animate-spin text-info" aria-hidden />,
  succeeded: <Check className="size-3.5 text-brand" aria-hidden />,
  failed: <X className="size-3.5 text-danger" aria-hidden />,
}

const stepLabel = (name: string) => name.replaceAll('_', ' ')

/**
 * Live progress of an operation (an instance's, or a report's), streamed from its events
 * endpoint; `refreshes` names the queries to reload when it ends.
 */
export function OperationProgressCard({ operation, refreshes }: { operation: Operation; refreshes: QueryKey }) {
  const { progress, connected } = useOperationEvents(operation, refreshes)
  const done = progress.status === 'succeeded' || progress.status === 'failed'
  // Keep the newest log line in view as events arrive.
  const logRef = useRef<HTMLOListElement>(null)
  useEffect(() => {
    if (logRef.current) logRef.current.scrollTop = logRef.current.scrollHeight
  }, [progress.log.length])
  return (
    <Card aria-labelledby="operation-progress-title">
      <CardHeader>
        <CardTitle id="operation-progress-title">
          Operation progress <span className="font-normal text-muted">· {operation.type}</span>
        </CardTitle>
        <span className="flex items-center gap-2">
          {!done ? <Badge tone={connected ? 'success' : 'neutral'}>{connected ? 'Live' : 'Connecting…'}</Badge> : null}
          <OperationStatusBadge status={progress.status} />
        </span>
      </CardHeader>
      <CardBody className="space-y-3">
        <div className="flex items-center gap-3">
          <Progress value={progress.progress} aria-label="Progress" className="flex-1" />
          <span className="w-10 text-right text-sm tabular-nums">{Math.round(progress.progress)}%</span>
        </div>
        <p className="text-sm">
          <span className="text-muted">Current step: </span>
          {progress.status === 'succeeded'
            ? 'All steps done'
            : progress.currentStep
              ? stepLabel(progress.currentStep)
              : progress.status === 'pending'
                ? 'Waiting for a worker'
                : '—'}
        </p>
        {progress.steps.length ? <StepList steps={progress.steps} /> : null}
        {progress.error ? <p className="text-sm text-danger">{progress.error}</p> : null}
        {progress.log.length ? (
          <ol ref={logRef} aria-label="Operation log" className="max-h-48 space-y-0.5 overflow-y-auto rounded-md bg-canvas p-2 font-mono text-xs">
            {progress.log.map((line) => (
              <li key={line.id}>
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

function StepList({ steps }: { steps: OperationStep[] }) {
  return (
    <ol aria-label="Steps" className="grid gap-1 sm:grid-cols-2">
      {steps.map((step) => (
        <li key={step.name} className="flex items-center gap-2 text-sm">
          {STEP_ICON[step.status] ?? STEP_ICON.pending}
          <span className={step.status === 'pending' ? 'text-muted' : undefined}>{stepLabel(step.name)}</span>
          <span className="sr-only">: {step.status}</span>
        </li>
      ))}
    </ol>
  )
}
