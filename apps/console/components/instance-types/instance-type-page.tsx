'use client'
import { useQueryClient } from '@tanstack/react-query'
import Link from 'next/link'
import { useEffect } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import { Alert } from '@/components/ui/alert'
import { Card, CardBody } from '@/components/ui/card'
import { useSessionQuery } from '@/data/auth/session-query'
import { queryKeys } from '@/data/keys'
import { useInstanceTypesQuery } from '@/data/catalog/instance-types-query'
import { useLatestTypeReportQuery } from '@/data/type-reports/type-report-latest-query'
import { useTypeReportsQuery } from '@/data/type-reports/type-reports-query'
import { formatGib, formatNumber } from '../instances/format'
import { PublishReportButton, ReportProgress } from './publish-report'
import { reportInProgress, reportUnfinished } from './report-figures'
import { TypeReportView } from './type-report-view'

/** One instance type: its size, Basalt's latest report of it, and for administrators the action to publish a new one. */
export function InstanceTypePage({ projectId, typeId }: { projectId: string; typeId: string }) {
  const { data: types, error: typesError } = useInstanceTypesQuery()
  const { data: session } = useSessionQuery()
  const reports = useTypeReportsQuery(typeId)
  const latest = useLatestTypeReportQuery(typeId)
  const type = types?.find((t) => t.id === typeId)
  const following = reports.data && latest.data !== undefined ? reportInProgress(reports.data, latest.data) : null
  const followed = following ? reports.data!.find((r) => r.id === following.id)! : null
  // The list (newest first, polled while a report runs) can see a report succeed before the
  // operation's live card does, and the card goes with the progress: the newest succeeded
  // report then reloads the latest report and the catalog's figures itself.
  const queryClient = useQueryClient()
  const newestSucceeded = reports.data?.find((r) => r.status === 'succeeded')?.id
  const shown = latest.data?.id
  useEffect(() => {
    if (newestSucceeded && latest.isSuccess && shown !== newestSucceeded) void queryClient.invalidateQueries({ queryKey: queryKeys.instanceTypes() })
  }, [newestSucceeded, shown, latest.isSuccess, queryClient])
  return (
    <>
      <PageHeader
        breadcrumb={
          <Link href={`/projects/${projectId}/instance-types`} className="hover:underline">
            Instance types
          </Link>
        }
        title={<span className="font-mono">{typeId}</span>}
        description={type ? `${type.vcpu} vCPU · ${formatGib(type.memory_gib)} memory · disk ${type.disk_gib_min}–${formatGib(type.disk_gib_max)} · ${formatNumber(type.max_connections)} connections` : undefined}
        actions={session?.user.is_admin && type ? <PublishReportButton typeId={typeId} busy={followed !== null && reportUnfinished(followed.status)} /> : null}
      />
      <main className="space-y-5 px-8 py-6">
        {typesError ? <Alert tone="danger">Could not load the instance types: {typesError.message}</Alert> : null}
        {types && !type ? <Alert tone="danger">The catalog has no instance type {typeId}.</Alert> : null}
        {reports.error ? <Alert tone="danger">Could not load the reports of {typeId}: {reports.error.message}</Alert> : null}
        {followed ? <ReportProgress report={followed} /> : null}
        {latest.error ? (
          <Alert tone="danger">Could not load the latest report: {latest.error.message}</Alert>
        ) : latest.isPending ? (
          <p className="text-sm text-muted">Loading the latest report…</p>
        ) : latest.data ? (
          <TypeReportView report={latest.data} />
        ) : (
          <Card>
            <CardBody className="py-10 text-center text-sm text-muted">
              No report yet: Basalt has not published figures for {typeId}.
              {session?.user.is_admin && !followed ? ' Publish report runs the standard suites on a temporary instance of this type.' : null}
            </CardBody>
          </Card>
        )}
      </main>
    </>
  )
}
