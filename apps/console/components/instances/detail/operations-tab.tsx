'use client'
import { Alert } from '@/components/ui/alert'
import { Card } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useInstanceOperationsQuery } from '@/data/operations/instance-operations-query'
import { formatDateTime } from '../format'
import { OperationStatusBadge } from './operation-status-badge'

export function OperationsTab({ projectId, instanceId }: { projectId: string; instanceId: string }) {
  const { data: operations, error, isPending } = useInstanceOperationsQuery(projectId, instanceId)
  if (error) return <Alert tone="danger">Could not load operations: {error.message}</Alert>
  return (
    <Card>
      {isPending ? (
        <p className="px-5 py-8 text-center text-sm text-muted">Loading operations…</p>
      ) : !operations?.length ? (
        <p className="px-5 py-8 text-center text-sm text-muted">No operations yet.</p>
      ) : (
        <Table aria-label="Operations">
          <THead>
            <tr>
              <Th>Type</Th>
              <Th>Status</Th>
              <Th>Progress</Th>
              <Th>Steps</Th>
              <Th>Started</Th>
              <Th>Finished</Th>
            </tr>
          </THead>
          <TBody>
            {operations.map((op) => (
              <Tr key={op.id}>
                <Td className="capitalize">{op.type}</Td>
                <Td>
                  <OperationStatusBadge status={op.status} />
                  {op.error?.message ? <p className="mt-1 max-w-xs text-xs text-danger">{op.error.message}</p> : null}
                </Td>
                <Td className="tabular-nums">{Math.round(op.progress)}%</Td>
                <Td className="text-xs text-muted">
                  {op.steps.length ? op.steps.map((s) => s.name).join(' → ') : '—'}
                </Td>
                <Td className="text-muted">{formatDateTime(op.started_at ?? op.created_at)}</Td>
                <Td className="text-muted">{formatDateTime(op.finished_at)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </Card>
  )
}
