'use client'
import dynamic from 'next/dynamic'
import Link from 'next/link'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { ApiError } from '@/data/fetcher'
import { useInstanceQuery } from '@/data/instances/instance-query'
import { HealthBadge, StatusBadge } from '../status-badge'
import { AllowlistTab } from './allowlist-tab'
import { BackupsTab } from './backups-tab'
import { BenchmarksTab } from './benchmarks-tab'
import { InstanceActions } from './instance-actions'
import { MonitoringTab } from './monitoring-tab'
import { OperationsTab } from './operations-tab'
import { OverviewTab } from './overview-tab'
import { HandedOverPassword } from './handed-over-password'
import { SlowlogTab } from './slowlog-tab'
import { UsersTab } from './users-tab'

// The data browser's code loads only when its tab is opened.
const DataTab = dynamic(() => import('./data/data-tab').then((m) => m.DataTab), {
  ssr: false,
  loading: () => <p className="text-sm text-muted">Loading the data browser…</p>,
})

/** Why the users and the allowlist cannot change in `status`: the API refuses it then (access-change.ts). */
function accessLocked(status: string): string | undefined {
  if (status === 'creating') return 'The instance is being created: its users and allowlist can change once it is running.'
  if (status === 'deleting' || status === 'deleted') return `The instance is ${status}.`
  return undefined
}

export function InstanceDetailPage({ projectId, instanceId }: { projectId: string; instanceId: string }) {
  const { data: instance, error, isPending } = useInstanceQuery(projectId, instanceId)
  const breadcrumb = (
    <Link href={`/projects/${projectId}/instances`} className="hover:underline">
      Instances
    </Link>
  )

  if (isPending) return <PageHeader breadcrumb={breadcrumb} title="Loading instance…" />
  if (error || !instance) {
    const missing = error instanceof ApiError && error.status === 404
    return (
      <>
        <PageHeader breadcrumb={breadcrumb} title="Instance" />
        <main className="px-8 py-6">
          <Alert tone="danger">{missing ? 'This instance does not exist in this project.' : `Could not load the instance: ${error?.message}`}</Alert>
        </main>
      </>
    )
  }

  return (
    <>
      <PageHeader
        breadcrumb={breadcrumb}
        title={instance.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={instance.status} />
            {instance.health ? <HealthBadge health={instance.health} reason={instance.health_reason} /> : null}
            <span className="font-mono text-xs">{instance.instance_type}</span>
            <span aria-hidden>·</span>
            <span>{instance.region}</span>
          </span>
        }
        actions={<InstanceActions projectId={projectId} instance={instance} />}
      />
      <main className="px-8 py-4">
        <HandedOverPassword instanceId={instance.id} />
        <Tabs defaultValue="overview">
          <TabsList aria-label="Instance sections">
            <TabsTrigger value="overview">Overview</TabsTrigger>
            <TabsTrigger value="monitoring">Monitoring</TabsTrigger>
            <TabsTrigger value="slowlog">Slow log</TabsTrigger>
            <TabsTrigger value="users">Users</TabsTrigger>
            <TabsTrigger value="allowlist">Allowlist</TabsTrigger>
            <TabsTrigger value="backups">Backups</TabsTrigger>
            <TabsTrigger value="data">Data</TabsTrigger>
            <TabsTrigger value="operations">Operations</TabsTrigger>
            <TabsTrigger value="benchmarks">Benchmarks</TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <OverviewTab projectId={projectId} instance={instance} />
          </TabsContent>
          <TabsContent value="monitoring">
            <MonitoringTab projectId={projectId} instance={instance} />
          </TabsContent>
          <TabsContent value="slowlog">
            <SlowlogTab projectId={projectId} instanceId={instance.id} />
          </TabsContent>
          <TabsContent value="users">
            <UsersTab projectId={projectId} instanceId={instance.id} locked={accessLocked(instance.status)} />
          </TabsContent>
          <TabsContent value="allowlist">
            <AllowlistTab projectId={projectId} instanceId={instance.id} locked={accessLocked(instance.status)} />
          </TabsContent>
          <TabsContent value="backups">
            <BackupsTab projectId={projectId} instance={instance} />
          </TabsContent>
          <TabsContent value="data">
            <DataTab projectId={projectId} instance={instance} />
          </TabsContent>
          <TabsContent value="operations">
            <OperationsTab projectId={projectId} instanceId={instance.id} />
          </TabsContent>
          <TabsContent value="benchmarks">
            <BenchmarksTab projectId={projectId} instance={instance} />
          </TabsContent>
        </Tabs>
      </main>
    </>
  )
}
