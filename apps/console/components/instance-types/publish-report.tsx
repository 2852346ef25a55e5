'use client'
// An administrator's "Publish report": the standard suites on a temporary instance of the type,
// each beside its peer; then the report's live progress until it is published (or fails).
import { Play } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import { BENCHMARK_SUITES } from '@/data/benchmarks/benchmark-run-mutation'
import { queryKeys } from '@/data/keys'
import { useOperationQuery } from '@/data/operations/operation-query'
import { useTypeReportPublishMutation, type PublishReportRequest } from '@/data/type-reports/type-report-publish-mutation'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { OperationProgressCard } from '../instances/detail/operation-progress-card'
import { OperationStatusBadge } from '../instances/detail/operation-status-badge'
import { formatDateTime } from '../instances/format'
import { reportUnfinished } from './report-figures'

type Suite = NonNullable<PublishReportRequest['suites']>[number]

/** The suites a report runs: every standard one (a custom run is an instance's own). */
const REPORT_SUITES = BENCHMARK_SUITES.filter((s): s is (typeof BENCHMARK_SUITES)[number] & { value: Suite } => s.value !== 'custom')

export function PublishReportButton({ typeId, busy }: { typeId: string; busy: boolean }) {
  const [open, setOpen] = useState(false)
  const [suites, setSuites] = useState<Suite[]>(REPORT_SUITES.map((s) => s.value))
  const publish = useTypeReportPublishMutation(typeId)
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    publish.mutate({ suites }, { onSuccess: () => setOpen(false) })
  }
  const toggle = (suite: Suite, on: boolean) => setSuites((current) => REPORT_SUITES.map((s) => s.value).filter((s) => (s === suite ? on : current.includes(s))))
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button onClick={() => setOpen(true)} disabled={busy} title={busy ? 'A report of this type is being made' : undefined}>
        <Play className="size-4" aria-hidden /> Publish report
      </Button>
      <DialogContent
        title={`Publish a report of ${typeId}`}
        description="The worker creates a temporary instance of this type and a peer of the same size, runs the suites on both, stores the report and deletes both. It replaces the type's figures in the catalog once it succeeds."
      >
        <form onSubmit={onSubmit} className="space-y-4">
          {publish.error ? <Alert tone="danger">{publish.error.message}</Alert> : null}
          <fieldset className="space-y-2">
            <legend className="mb-1 text-sm font-medium">Suites</legend>
            {REPORT_SUITES.map((s) => (
              <label key={s.value} className="flex items-start gap-2 text-sm">
                <input type="checkbox" className="mt-0.5 accent-brand" checked={suites.includes(s.value)} onChange={(e) => toggle(s.value, e.target.checked)} aria-label={s.value} />
                <span>{s.label}</span>
              </label>
            ))}
          </fieldset>
          <div className="flex justify-end">
            <Button type="submit" disabled={publish.isPending || suites.length === 0}>
              {publish.isPending ? 'Publishing…' : 'Publish'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** A report being made (or the last one, when it failed): its suites' states and the operation's live log. */
export function ReportProgress({ report }: { report: TypeReport }) {
  const { data: operation } = useOperationQuery(report.operation_id)
  return (
    <div className="space-y-5">
      <Card aria-labelledby="report-progress-title">
        <CardHeader>
          <CardTitle id="report-progress-title">
            {reportUnfinished(report.status) ? 'Report in the making' : `The last report ${report.status === 'failed' ? 'failed' : 'was cancelled'}`} · requested{' '}
            {formatDateTime(report.created_at)}
          </CardTitle>
          <OperationStatusBadge status={report.status} />
        </CardHeader>
        <CardBody className="space-y-2 text-sm">
          <ul aria-label="Suites of the report" className="space-y-1">
            {report.suites.map((suite) => {
              const run = report.runs.find((r) => r.workload === suite)
              return (
                <li key={suite} className="flex items-center gap-2">
                  <span className="w-40 font-mono text-xs">{suite}</span>
                  <OperationStatusBadge status={run?.status ?? 'pending'} />
                  <span className="text-muted">{run ? `${run.scenarios.length} measurements stored` : 'not started'}</span>
                </li>
              )
            })}
          </ul>
          {report.instance ? (
            <p className="text-muted">
              Temporary instance: <span className="font-mono text-xs">{report.instance.id}</span> ({report.instance.status})
            </p>
          ) : null}
        </CardBody>
      </Card>
      {operation ? <OperationProgressCard operation={operation} refreshes={queryKeys.instanceTypes()} /> : null}
    </div>
  )
}
