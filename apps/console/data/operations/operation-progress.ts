// Folds an operation's Server-Sent Events into what the progress panel shows. Pure, so the
// rules (progress never goes backwards, steps follow their events, the end is final) are testable.
import type { Operation, OperationEvent, OperationStatus, OperationStep } from './operation-types'

export interface OperationProgress {
  status: OperationStatus
  progress: number
  steps: OperationStep[]
  /** The step list came from the operation itself (all steps), not only from events seen. */
  stepsComplete: boolean
  currentStep: string | null
  log: { id: number | string; step: string | null; message: string; at: string }[]
  error: string | null
}

const LOG_LIMIT = 200

type OperationSnapshot = Pick<Operation, 'status' | 'progress' | 'steps' | 'error'>

function currentStepOf(steps: OperationStep[]): string | null {
  const running = steps.find((s) => s.status === 'running') ?? [...steps].reverse().find((s) => s.status !== 'pending')
  return running?.name ?? null
}

export function initialProgress(operation: OperationSnapshot | null | undefined): OperationProgress {
  const steps = operation?.steps ?? []
  return {
    status: operation?.status ?? 'pending',
    progress: operation?.progress ?? 0,
    steps,
    stepsComplete: steps.length > 0,
    currentStep: currentStepOf(steps),
    log: [],
    error: operation?.error?.message ?? null,
  }
}

export function isFinished(status: OperationStatus): boolean {
  return status === 'succeeded' || status === 'failed'
}

/** The operation as loaded again (polling or the stream's final `operation` event). */
export function applyOperationSnapshot(state: OperationProgress, operation: OperationSnapshot): OperationProgress {
  if (isFinished(state.status) && !isFinished(operation.status)) return state
  const steps = operation.steps.length ? operation.steps : state.steps
  return {
    ...state,
    status: operation.status,
    progress: operation.status === 'succeeded' ? 100 : Math.max(state.progress, operation.progress),
    steps,
    stepsComplete: state.stepsComplete || operation.steps.length > 0,
    currentStep: currentStepOf(steps) ?? state.currentStep,
    error: operation.error?.message ?? state.error,
  }
}

function withStep(steps: OperationStep[], name: string, patch: Partial<OperationStep>): OperationStep[] {
  const found = steps.some((s) => s.name === name)
  const next = found ? steps.map((s) => (s.name === name ? { ...s, ...patch } : s)) : [...steps, { name, status: 'pending' as const, ...patch }]
  return next
}

/** Done steps over all steps, below 100 until the operation itself succeeds (as the worker counts). */
function stepProgress(steps: OperationStep[]): number {
  if (!steps.length) return 0
  const done = steps.filter((s) => s.status === 'succeeded').length
  return Math.min(99, Math.floor((done / steps.length) * 100))
}

export function applyOperationEvent(state: OperationProgress, event: OperationEvent): OperationProgress {
  if (state.log.some((line) => line.id === event.id)) return state // replayed after a reconnect
  let next: OperationProgress = {
    ...state,
    log: [...state.log, { id: event.id, step: event.step, message: event.message, at: event.created_at }].slice(-LOG_LIMIT),
  }
  if (isFinished(state.status)) return next
  const step = event.step
  // Progress is counted over the operation's whole step list, known only from a snapshot.
  const known = state.stepsComplete && Boolean(step) && state.steps.some((s) => s.name === step)
  switch (event.kind) {
    case 'step_started':
      if (step) next = { ...next, steps: withStep(next.steps, step, { status: 'running', started_at: event.created_at }), currentStep: step }
      next.status = 'running'
      break
    case 'step_succeeded':
      if (step) next = { ...next, steps: withStep(next.steps, step, { status: 'succeeded', finished_at: event.created_at }) }
      break
    case 'step_failed':
      if (step) next = { ...next, steps: withStep(next.steps, step, { status: 'failed', finished_at: event.created_at }), currentStep: step }
      next.error = event.message
      break
    case 'operation_succeeded':
      return { ...next, status: 'succeeded', progress: 100 }
    case 'operation_failed':
      return { ...next, status: 'failed', error: event.message || state.error || 'The operation failed.' }
    default:
      if (step && next.status === 'pending') next.status = 'running'
  }
  if (known) next.progress = Math.max(state.progress, stepProgress(next.steps))
  return next
}
