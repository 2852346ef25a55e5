import Link from 'next/link'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { Instance } from '@/data/instances/instance-query'
import { hostPort, preferredEndpoint } from './connection'
import { formatRelative } from './format'
import { HealthBadge, StatusBadge } from './status-badge'
import { OpsSparkline } from './ops-sparkline'

export function InstancesTable({ projectId, instances }: { projectId: string; instances: Instance[] }) {
  return (
    <Table aria-label="Instances">
      <THead>
        <tr>
          <Th>Name</Th>
          <Th>Status</Th>
          <Th>Health</Th>
          <Th>Ops/s</Th>
          <Th>Type</Th>
          <Th>Region</Th>
          <Th>Endpoint</Th>
          <Th>Created</Th>
        </tr>
      </THead>
      <TBody>
        {instances.map((instance) => {
          const endpoint = preferredEndpoint(instance.endpoints)
          return (
            <Tr key={instance.id}>
              <Td>
                <Link
                  href={`/projects/${projectId}/instances/${instance.id}`}
                  className="font-medium text-brand hover:underline"
                >
                  {instance.name}
                </Link>
              </Td>
              <Td>
                <StatusBadge status={instance.status} />
              </Td>
              <Td>
                <HealthBadge health={instance.health} reason={instance.health_reason} />
              </Td>
              <Td>
                <OpsSparkline projectId={projectId} instanceId={instance.id} running={instance.status === 'running' || instance.status === 'modifying'} />
              </Td>
              <Td className="font-mono text-xs">{instance.instance_type}</Td>
              <Td>{instance.region}</Td>
              <Td className="font-mono text-xs">
                {endpoint ? hostPort(endpoint) : <span className="font-sans text-muted">Pending</span>}
              </Td>
              <Td className="text-muted" title={instance.created_at}>
                {formatRelative(instance.created_at)}
              </Td>
            </Tr>
          )
        })}
      </TBody>
    </Table>
  )
}
