import type { Schemas } from '../fetcher'

export type Operation = Schemas['OperationDto']
export type OperationStatus = Operation['status']
export type OperationStep = Schemas['OperationStepDto']

/**
 * The data of one `progress` Server-Sent Event: what the worker appended to the operation
 * (kinds such as step_started, step_succeeded, step_failed, terraform, ansible,
 * operation_succeeded, operation_failed).
 */
export interface OperationEvent {
  id: number | string
  kind: string
  step: string | null
  message: string
  data: unknown
  created_at: string
}
