'use client'
// A published report's suites (a committed report loaded at the API's start): its runs were made
// elsewhere, so their figures come from the report's document, charted with the same series as
// a local report's (suiteCharts, @basalt/api-client) and the same as the SVGs beside the
// committed markdown. The tables and every command line are in its report.md.
import { suiteCharts, type SuiteChart } from '@basalt/api-client/rules'
import { BenchmarkChart } from '@/components/benchmarks/benchmark-chart'
import { Alert } from '@/components/ui/alert'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { useTypeReportDocumentQuery } from '@/data/type-reports/type-report-document-query'
import type { TypeReport } from '@/data/type-reports/type-report-types'
import { ChartBox } from './chart-box'

/** The frame's title, as a local report's page says it: the unit of a latency, "(Basalt)" on a chart of Basalt alone. */
function boxTitle(c: SuiteChart): string {
  if (c.key === 'p99') return c.title.replace('p99 latency', 'p99 latency (ms)')
  return c.key === 'ops' ? c.title : `${c.title} (Basalt)`
}

export function PublishedSuites({ report }: { report: TypeReport }) {
  const { data: doc, error, isPending } = useTypeReportDocumentQuery(report.instance_type, report.id, true)
  if (error) return <Alert tone="danger">Could not load the published report&apos;s figures: {error.message}</Alert>
  if (isPending) return <p className="text-sm text-muted">Loading the published report&apos;s figures…</p>
  return (
    <>
      {doc.runs.map((run, i) => {
        const titleId = `published-suite-${i}-title`
        return (
          <Card key={run.workload} aria-labelledby={titleId}>
            <CardHeader>
              <CardTitle id={titleId}>{run.workload}</CardTitle>
            </CardHeader>
            <CardBody className="grid gap-4 xl:grid-cols-2">
              {suiteCharts(run).map((c) => (
                <ChartBox key={c.key} title={boxTitle(c)}>
                  <BenchmarkChart title={c.title} chart={c.chart} unit={c.unit} />
                </ChartBox>
              ))}
            </CardBody>
          </Card>
        )
      })}
    </>
  )
}
