'use client'
import { Plus, RefreshCw } from 'lucide-react'
import Link from 'next/link'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useInstancesQuery } from '@/data/instances/instances-query'
import { useProjectRole } from '@/data/projects/projects-query'
import { useDebounced } from '@/lib/use-debounced'
import { InstancesTable } from './instances-table'

export function InstancesPage({ projectId }: { projectId: string }) {
  const role = useProjectRole(projectId)
  const [filter, setFilter] = useState('')
  const name = useDebounced(filter.trim())
  const { data: instances, error, isPending, refetch, isFetching, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useInstancesQuery(projectId, { name: name || undefined })

  return (
    <>
      <PageHeader
        title="Instances"
        description="Persistent, Redis-compatible databases in this project."
        actions={
          role === 'viewer' ? (
            <Button disabled title="Viewers cannot create instances">
              <Plus className="size-4" aria-hidden /> Create instance
            </Button>
          ) : (
            <Button asChild>
              <Link href={`/projects/${projectId}/instances/new`}>
                <Plus className="size-4" aria-hidden /> Create instance
              </Link>
            </Button>
          )
        }
      />
      <main className="space-y-4 px-8 py-6">
        <div className="flex items-center gap-2">
          <Input
            type="search"
            aria-label="Filter instances by name"
            placeholder="Filter by name"
            className="max-w-xs"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <Button variant="secondary" onClick={() => refetch()} disabled={isFetching} aria-label="Refresh instances">
            <RefreshCw className={isFetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
          </Button>
        </div>
        {error ? <Alert tone="danger">Could not load instances: {error.message}</Alert> : null}
        <Card>
          {isPending ? (
            <p className="px-5 py-10 text-center text-sm text-muted">Loading instances…</p>
          ) : instances && instances.length === 0 ? (
            name ? (
              <p className="px-5 py-10 text-center text-sm text-muted">No instance name contains “{name}”.</p>
            ) : (
              <EmptyState projectId={projectId} />
            )
          ) : (
            <InstancesTable projectId={projectId} instances={instances ?? []} />
          )}
        </Card>
        {hasNextPage ? (
          <div className="flex justify-center">
            <Button variant="secondary" onClick={() => fetchNextPage()} disabled={isFetchingNextPage}>
              {isFetchingNextPage ? 'Loading…' : 'Load more instances'}
            </Button>
          </div>
        ) : null}
      </main>
    </>
  )
}

function EmptyState({ projectId }: { projectId: string }) {
  return (
    <div className="px-5 py-14 text-center">
      <h2 className="text-base font-semibold">No instances yet</h2>
      <p className="mx-auto mt-1 max-w-md text-sm text-muted">
        Create an instance to get an endpoint, credentials and a benchmark report measured on it.
      </p>
      <Button asChild className="mt-4">
        <Link href={`/projects/${projectId}/instances/new`}>Create your first instance</Link>
      </Button>
    </div>
  )
}
