import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import {
  applyOperationEvent,
  applyOperationSnapshot,
  initialProgress,
  isFinished,
  type OperationProgress,
} from './operation-progress'
import { getOperation } from './operation-query'
import type { Operation, OperationEvent } from './operation-types'

/** Events after which the operation row has new steps and progress worth reloading. */
const STEP_EVENTS = new Set(['step_started', 'step_succeeded', 'step_failed', 'step_retry'])

/** `GET /v1/operations/{id}/events`: Server-Sent Events, `progress` ones then a final `operation`. */
export function operationEventsUrl(operationId: string) {
  return `/v1/operations/${encodeURIComponent(operationId)}/events`
}

/**
 * Streams an operation's events into live progress. The browser's EventSource resumes with
 * Last-Event-ID after a drop; when the operation ends the queries under `refreshes` (what the
 * operation changed: an instance's status and endpoints, a report) are refreshed to catch up.
 */
export function useOperationEvents(operation: Operation, refreshes: QueryKey) {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<OperationProgress>(() => initialProgress(operation))
  const [connected, setConnected] = useState(false)
  const operationId = operation.id
  const finishedAtStart = isFinished(operation.status)
  // Callers build the key inline (a new array each render): keep the latest without reopening the stream.
  const refreshesRef = useRef(refreshes)
  refreshesRef.current = refreshes

  // A new operation starts over; a refetched one (polling) folds in what it knows.
  useEffect(() => setProgress(initialProgress(operation)), [operationId]) // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => setProgress((state) => applyOperationSnapshot(state, operation)), [operation])

  useEffect(() => {
    if (finishedAtStart || typeof EventSource === 'undefined') return
    const source = new EventSource(operationEventsUrl(operationId))
    const parse = (message: MessageEvent<string>) => {
      try {
        return JSON.parse(message.data) as unknown
      } catch {
        return undefined
      }
    }
    source.onopen = () => setConnected(true)
    source.onerror = () => setConnected(false)
    source.addEventListener('progress', (message) => {
      const event = parse(message as MessageEvent<string>) as OperationEvent | undefined
      if (!event) return
      setProgress((state) => applyOperationEvent(state, event))
      if (STEP_EVENTS.has(event.kind)) {
        getOperation(operationId)
          .then((snapshot) => setProgress((state) => applyOperationSnapshot(state, snapshot)))
          .catch(() => {}) // the next event or the instance's polling catches up
      }
    })
    source.addEventListener('operation', (message) => {
      const final = parse(message as MessageEvent<string>) as Operation | undefined
      source.close()
      setConnected(false)
      if (final) setProgress((state) => applyOperationSnapshot(state, final))
      void queryClient.invalidateQueries({ queryKey: refreshesRef.current })
    })
    return () => source.close()
  }, [operationId, finishedAtStart, queryClient])

  return { progress, connected }
}
