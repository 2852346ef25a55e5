'use client'
// A published per-type report: how and where it was measured, its headline, and per suite the
// charts, tables and every command line (the same components as an instance's Benchmarks tab).
import { FileText } from 'lucide-react'
import type { ReactNode } from 'react'
import { BenchmarkChart } from '@/components/benchmarks/benchmark-chart'
import { BenchmarkCommands, BenchmarkResultsTable } from '@/components/benchmarks/benchmark-results'
import { EncryptionOverheadTable, encryptionOverheadChart } from '@/components/benchmarks/encryption-overhead'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { formatDateTime } from '../instances/format'
import { OperationStatusBadge } from '../instances/detail/operation-status-badge'
import { headlineFigures, reportDocumentUrl, reportMarkdownUrl, reportProvenance, reportSuites, type ReportSuite } from './report-figures'
import { ChartBox } from './chart-box'
import { PublishedSuites } from './published-suites'

export function TypeReportView({ report }: { report: TypeReport }) {
  return (
    <div className="space-y-5">
      <ReportEnvironment report={report} />
      {report.origin === 'published' ? (
        <PublishedSuites report={report} />
      ) : (
        reportSuites(report).map((suite) => <SuiteCard key={suite.run.id} suite={suite} />)
      )}
    </div>
  )
}

function ReportEnvironment({ report }: { report: TypeReport }) {
  const headline = headlineFigures(report)
  return (
    <Card aria-labelledby="report-environment-title">
      <CardHeader>
        <CardTitle id="report-environment-title">Latest report · {reportProvenance(report)}</CardTitle>
        <div className="flex gap-4">
          <a href={reportMarkdownUrl(report.instance_type, report.id)} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1.5 text-sm text-brand hover:underline">
            <FileText className="size-4" aria-hidden /> report.md
          </a>
          {report.origin === 'published' ? (
            <a href={reportDocumentUrl(report.instance_type, report.id)} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1.5 text-sm text-brand hover:underline">
              <FileText className="size-4" aria-hidden /> report.json
            </a>
          ) : null}
        </div>
      </CardHeader>
      <CardBody className="space-y-4">
        <p className="text-sm" aria-label="Environment">
          {report.environment}
        </p>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 xl:grid-cols-4">
          <Term label="Engine">basalt-server {report.engine_version ?? '—'}</Term>
          <Term label="Peers (same run, same VM size)">{report.peers.length ? report.peers.map((p) => p.version).join(', ') : 'none'}</Term>
          <Term label="Suites">{report.suites.join(', ')}</Term>
          <Term label="Measured">{report.finished_at ? `${formatDateTime(report.started_at)} to ${formatDateTime(report.finished_at)}` : formatDateTime(report.measured_at)}</Term>
          <Term label="Commit">{report.commit ?? '—'}</Term>
        </dl>
        {headline.length ? (
          <dl aria-label="Headline figures" className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {headline.map((f) => (
              <div key={f.label} className="rounded-md border border-border bg-canvas px-3 py-2">
                <dt className="text-xs text-muted">{f.label}</dt>
                <dd className="text-lg font-semibold tabular-nums">{f.value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
      </CardBody>
    </Card>
  )
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-muted">{label}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function SuiteCard({ suite }: { suite: ReportSuite }) {
  const name = suite.run.workload
  const titleId = `suite-${suite.run.id}-title`
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>{name}</CardTitle>
        <OperationStatusBadge status={suite.run.status} />
      </CardHeader>
      <CardBody className="space-y-4">
        {suite.rows.length === 0 ? (
          <p className="text-sm text-muted">No scenario of this suite was measured.</p>
        ) : (
          <>
            {name === 'encryption-overhead' ? (
              <ChartBox title={`${name}: median ops/s by value size and encryption (Basalt)`}>
                <BenchmarkChart title={`${name}: median ops/s by value size and encryption`} chart={encryptionOverheadChart(suite.run)} unit="ops/s" />
              </ChartBox>
            ) : (
              <div className="grid gap-4 xl:grid-cols-2">
                {suite.qpsBySize ? (
                  <ChartBox title={`${name}: ops/s by value size and pipeline (Basalt)`}>
                    <BenchmarkChart title={`${name}: ops/s by value size and pipeline`} chart={suite.qpsBySize} unit="ops/s" />
                  </ChartBox>
                ) : null}
                <ChartBox title={`${name}: ops/s, Basalt vs peer`}>
                  <BenchmarkChart title={`${name}: ops/s, Basalt vs peer`} chart={suite.throughput} unit="ops/s" />
                </ChartBox>
                <ChartBox title={`${name}: p99 latency (ms), Basalt vs peer`}>
                  <BenchmarkChart title={`${name}: p99 latency, Basalt vs peer`} chart={suite.latency} unit="ms" />
                </ChartBox>
              </div>
            )}
            {name === 'encryption-overhead' ? (
              <EncryptionOverheadTable benchmark={suite.run} label={`${name} results`} />
            ) : (
              <BenchmarkResultsTable rows={suite.rows} label={`${name} results`} />
            )}
            <BenchmarkCommands benchmark={suite.run} />
          </>
        )}
      </CardBody>
    </Card>
  )
}
