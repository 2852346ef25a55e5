// Folds an operation's Server-Sent Events into what the progress panel shows. Pure, so the
// rules (progress never goes backwards, the last step named is the current one) are testable.
import type { Operation, OperationEvent, OperationStatus } from './operation-types'

export interface OperationProgress {
  status: OperationStatus
  progress: number
  currentStep: string | null
  log: { step: string | null; message: string; at?: string }[]
  error: string | null
}

const LOG_LIMIT = 200

export function initialProgress(operation: Pick<Operation, 'status' | 'progress' | 'steps' | 'error'> | null | undefined): OperationProgress {
  const steps = operation?.steps ?? []
  const running = [...steps].reverse().find((s) => s.status === 'running') ?? steps.at(-1)
  return {
    status: operation?.status ?? 'pending',
    progress: operation?.progress ?? 0,
    currentStep: running?.name ?? null,
    log: [],
    error: operation?.error?.message ?? null,
  }
}

export function applyOperationEvent(state: OperationProgress, event: OperationEvent): OperationProgress {
  const next: OperationProgress = { ...state }
  if (typeof event.progress === 'number' && Number.isFinite(event.progress)) {
    next.progress = Math.max(state.progress, Math.min(100, event.progress))
  }
  if (event.step) next.currentStep = event.step
  if (event.status) next.status = event.status
  else if (state.status === 'pending') next.status = 'running'
  if (event.kind === 'failed' || event.kind === 'error' || event.status === 'failed') {
    next.status = 'failed'
    next.error = event.message || state.error || 'The operation failed.'
  }
  if (event.kind === 'succeeded' || event.status === 'succeeded') {
    next.status = 'succeeded'
    next.progress = 100
  }
  if (event.message) {
    next.log = [...state.log, { step: event.step ?? null, message: event.message, at: event.created_at }].slice(-LOG_LIMIT)
  }
  return next
}

export function isFinished(status: OperationStatus): boolean {
  return status === 'succeeded' || status === 'failed'
}
