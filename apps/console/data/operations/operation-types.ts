export type OperationStatus = 'pending' | 'running' | 'succeeded' | 'failed'

export interface OperationStep {
  name: string
  status: OperationStatus
  started_at?: string | null
  finished_at?: string | null
}

export interface Operation {
  id: string
  project_id: string
  instance_id: string | null
  type: string
  status: OperationStatus
  progress: number
  steps: OperationStep[]
  error: { code?: string; message: string; step: string | null; exit_code?: number | null; output_tail?: string } | null
  created_at: string
  started_at?: string | null
  finished_at?: string | null
}

/** One Server-Sent Event of an operation: a step started or finished, a log line, or the end. */
export interface OperationEvent {
  id?: number | string
  kind: string
  step?: string | null
  message?: string
  progress?: number
  status?: OperationStatus
  data?: unknown
  created_at?: string
}
