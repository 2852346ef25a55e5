import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { seg } from '../fetcher'
import { queryKeys } from '../keys'
import { applyOperationEvent, initialProgress, isFinished, type OperationProgress } from './operation-progress'
import type { Operation, OperationEvent } from './operation-types'

export function operationEventsUrl(project: string, operationId: string) {
  return `/v1/projects/${seg(project)}/operations/${seg(operationId)}/events`
}

/**
 * Streams `/operations/{id}/events` (Server-Sent Events) into live progress. When the operation
 * ends, the instance's queries are refreshed so status and endpoints catch up.
 */
export function useOperationEvents(project: string, instanceId: string, operation: Operation | null | undefined) {
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<OperationProgress>(() => initialProgress(operation))
  const [connected, setConnected] = useState(false)
  const operationId = operation?.id
  const finishedAtStart = operation ? isFinished(operation.status) : true

  useEffect(() => {
    setProgress(initialProgress(operation))
    // Only the operation's identity restarts the stream; its fields arrive through events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [operationId])

  useEffect(() => {
    if (!operationId || finishedAtStart || typeof EventSource === 'undefined') return
    const source = new EventSource(operationEventsUrl(project, operationId))
    const onMessage = (message: MessageEvent<string>) => {
      let event: OperationEvent
      try {
        event = { kind: message.type === 'message' ? 'event' : message.type, ...JSON.parse(message.data) }
      } catch {
        return
      }
      setProgress((state) => {
        const next = applyOperationEvent(state, event)
        if (isFinished(next.status) && !isFinished(state.status)) {
          source.close()
          void queryClient.invalidateQueries({ queryKey: queryKeys.instances.all(project) })
        }
        return next
      })
    }
    source.onopen = () => setConnected(true)
    source.onerror = () => setConnected(false)
    source.onmessage = onMessage
    for (const type of ['step', 'log', 'progress', 'succeeded', 'failed', 'status']) {
      source.addEventListener(type, onMessage as EventListener)
    }
    return () => source.close()
  }, [project, instanceId, operationId, finishedAtStart, queryClient])

  return { progress, connected }
}
