import { Badge } from '@/components/ui/badge'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { Instance } from '@/data/instances/instance-query'

/** Bytes as the lag column shows them. */
export function formatLag(bytes: number | null): string {
  if (bytes === null) return '—'
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
}

/** The instance's nodes with their role, status and replication lag (issue 15). */
export function NodesCard({ instance }: { instance: Instance }) {
  if (instance.nodes.length === 0) return null
  return (
    <Card>
      <CardHeader>
        <CardTitle>Nodes</CardTitle>
      </CardHeader>
      <CardBody>
        <Table aria-label="Nodes">
          <THead>
            <tr>
              <Th>Node</Th>
              <Th>Address</Th>
              <Th>Role</Th>
              <Th>Status</Th>
              <Th>Replication lag</Th>
            </tr>
          </THead>
          <TBody>
            {instance.nodes.map((node) => (
              <Tr key={node.name}>
                <Td className="font-mono text-xs break-all">{node.name}</Td>
                <Td className="font-mono text-xs">{node.private_ip}</Td>
                <Td>
                  <Badge>{node.role}</Badge>
                </Td>
                <Td>{node.status}</Td>
                <Td>{node.role === 'replica' ? formatLag(node.lag_bytes) : '—'}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </CardBody>
    </Card>
  )
}
