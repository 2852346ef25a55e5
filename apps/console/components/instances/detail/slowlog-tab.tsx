'use client'
import { Alert } from '@/components/ui/alert'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useInstanceSlowlogQuery } from '@/data/instances/instance-slowlog-query'
import { formatDateTime } from '../format'

/** Microseconds as the slow log's readers expect them: ms above a millisecond. */
function duration(us: number): string {
  return us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us} µs`
}

export function SlowlogTab({ projectId, instanceId }: { projectId: string; instanceId: string }) {
  const { data: entries, error, isPending } = useInstanceSlowlogQuery(projectId, instanceId)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Slow log</CardTitle>
        <p className="text-sm text-muted">
          Commands that ran longer than <span className="font-mono">slowlog-log-slower-than</span> (10 ms by default) on each node,
          newest first. Arguments are cut to 128 bytes and passwords are never kept. Refreshes every 10 s.
        </p>
      </CardHeader>
      <CardBody>
        {error ? <Alert tone="danger">Could not read the slow log: {error.message}</Alert> : null}
        {isPending && !error ? <p className="text-sm text-muted">Reading the slow log…</p> : null}
        {entries && entries.length === 0 ? <p className="text-sm text-muted">No slow commands: nothing took longer than the threshold.</p> : null}
        {entries && entries.length > 0 ? (
          <Table aria-label="Slow commands">
            <THead>
              <tr>
                <Th>Time</Th>
                <Th>Duration</Th>
                <Th>Command</Th>
                <Th>Client</Th>
                <Th>Node</Th>
              </tr>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <Tr key={`${entry.node}-${entry.id}`}>
                  <Td className="whitespace-nowrap text-muted">{formatDateTime(entry.time)}</Td>
                  <Td className="tabular-nums">{duration(entry.duration_us)}</Td>
                  <Td className="max-w-xl break-all font-mono text-xs">{entry.command.join(' ')}</Td>
                  <Td className="font-mono text-xs">
                    {entry.client_address}
                    {entry.client_name ? ` (${entry.client_name})` : ''}
                  </Td>
                  <Td className="font-mono text-xs text-muted">{entry.node}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        ) : null}
      </CardBody>
    </Card>
  )
}
