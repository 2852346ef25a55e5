import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import type { Instance } from '@/data/instances/instance-query'
import { queryKeys } from '@/data/keys'
import { formatDateTime, formatGib, formatInstant } from '../format'
import { ConnectionCard } from './connection-card'
import { NodesCard } from './nodes-card'
import { DeletionProtectionSwitch } from './deletion-protection-switch'
import { OperationProgressCard } from './operation-progress-card'

/** How long a finished operation stays on the overview, so its outcome is seen. */
const RECENT_MS = 10 * 60_000

export function OverviewTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  const current = instance.current_operation
  const finishedAt = current?.finished_at ? Date.parse(current.finished_at) : null
  const operation = current && (finishedAt === null || Date.now() - finishedAt < RECENT_MS) ? current : null
  return (
    <div className="grid gap-5 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <div className="space-y-5">
        {instance.fault ? (
          <Alert tone="danger">
            <strong className="font-semibold">{instance.fault.code}</strong>
            {instance.fault.step ? ` during ${instance.fault.step}` : ''}: {instance.fault.message}
          </Alert>
        ) : null}
        {operation ? <OperationProgressCard operation={operation} refreshes={queryKeys.instances.all(projectId)} /> : null}
        <ConnectionCard instance={instance} />
        <NodesCard instance={instance} />
      </div>
      <Card aria-labelledby="configuration-title">
        <CardHeader>
          <CardTitle id="configuration-title">Configuration</CardTitle>
        </CardHeader>
        <CardBody>
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2.5 text-sm">
            <Item term="Instance ID" value={<span className="font-mono text-xs break-all">{instance.id}</span>} />
            <Item term="Instance type" value={<span className="font-mono text-xs">{instance.instance_type}</span>} />
            <Item term="Region" value={instance.region} />
            <Item term="Disk" value={formatGib(instance.disk_gib)} />
            <Item
              term="Architecture"
              value={instance.architecture === 'standard' ? `Standard — primary and ${instance.replicas} replica${instance.replicas === 1 ? '' : 's'}` : 'Standalone'}
            />
            {instance.architecture === 'standard' ? <Item term="Replication" value={instance.parameters.replication_mode ?? 'sync'} /> : null}
            {instance.engine_version ? <Item term="Engine version" value={instance.engine_version} /> : null}
            <Item term="TLS" value={instance.tls_enabled ? 'Enabled' : 'Disabled'} />
            <Item term="Deletion protection" value={<DeletionProtectionSwitch projectId={projectId} instance={instance} />} />
            <Item term="fsync" value={instance.parameters.fsync ?? 'Engine default'} />
            <Item term="Max clients" value={instance.parameters.maxclients ?? 'Instance type limit'} />
            <Item term="Idle timeout" value={instance.parameters.timeout ? `${instance.parameters.timeout} s` : 'Never'} />
            <Item
              term="Tags"
              value={
                Object.keys(instance.tags).length ? (
                  <span className="flex flex-wrap gap-1">
                    {Object.entries(instance.tags).map(([k, v]) => (
                      <Badge key={k} className="font-mono">
                        {v ? `${k}=${v}` : k}
                      </Badge>
                    ))}
                  </span>
                ) : (
                  '—'
                )
              }
            />
            {instance.restored_from ? <Item term="Restored from" value={<RestoredFrom source={instance.restored_from} />} /> : null}
            <Item term="Created" value={formatDateTime(instance.created_at)} />
          </dl>
        </CardBody>
      </Card>
    </div>
  )
}

function Item({ term, value }: { term: string; value: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0">{value}</dd>
    </>
  )
}

/** What the data was restored from when the instance was made: a backup, or an instance at a point. */
function RestoredFrom({ source }: { source: NonNullable<Instance['restored_from']> }) {
  if (source.backup_id) return <span className="font-mono text-xs break-all">Backup {source.backup_id}</span>
  return (
    <span>
      <span className="font-mono text-xs break-all">{source.source_instance_id}</span> at {formatInstant(source.point_in_time)}
    </span>
  )
}
