'use client'
import { Alert } from '@/components/ui/alert'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useInstanceBenchmarksQuery } from '@/data/benchmarks/instance-benchmarks-query'
import { formatDateTime, formatNumber } from '../format'
import { BenchmarkChart } from './benchmark-chart'
import { benchmarkRows } from './benchmark-rows'
import { OperationStatusBadge } from './operation-status-badge'
import { RunBenchmark } from './run-benchmark'
import type { Instance } from '@/data/instances/instance-query'

export function BenchmarksTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  return (
    <div className="space-y-5">
      <RunBenchmark projectId={projectId} instance={instance} />
      <BenchmarkResults projectId={projectId} instanceId={instance.id} />
    </div>
  )
}

function BenchmarkResults({ projectId, instanceId }: { projectId: string; instanceId: string }) {
  const { data: benchmarks, error, isPending } = useInstanceBenchmarksQuery(projectId, instanceId)
  if (error) return <Alert tone="danger">Could not load benchmarks: {error.message}</Alert>
  if (isPending) return <p className="text-sm text-muted">Loading benchmarks…</p>
  if (!benchmarks?.length)
    return (
      <Card>
        <CardBody className="py-10 text-center text-sm text-muted">
          No benchmark has run on this instance yet. A report measured on the instance itself appears here once it is
          running.
        </CardBody>
      </Card>
    )
  const latest = benchmarks.find((b) => b.status === 'succeeded')
  const latestRows = latest ? benchmarkRows(latest) : []
  const command = latest && !Array.isArray(latest.results) && typeof latest.results?.command === 'string' ? latest.results.command : null
  return (
    <div className="space-y-5">
      {latest ? (
        <Card>
          <CardHeader>
            <CardTitle>
              Latest report: {latest.tool} · {latest.workload}
            </CardTitle>
            <span className="text-xs text-muted">{formatDateTime(latest.finished_at ?? latest.created_at)}</span>
          </CardHeader>
          <CardBody className="space-y-4">
            <BenchmarkChart rows={latestRows} />
            <Table aria-label="Benchmark results">
              <THead>
                <tr>
                  <Th>Workload</Th>
                  <Th className="text-right">Ops/s</Th>
                  <Th className="text-right">p50 (ms)</Th>
                  <Th className="text-right">p99 (ms)</Th>
                </tr>
              </THead>
              <TBody>
                {latestRows.map((row) => (
                  <Tr key={row.label}>
                    <Td>{row.label}</Td>
                    <Td className="text-right tabular-nums">{formatNumber(row.opsPerSec)}</Td>
                    <Td className="text-right tabular-nums">{formatNumber(row.p50Ms)}</Td>
                    <Td className="text-right tabular-nums">{formatNumber(row.p99Ms)}</Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            {command ? <CodeBlock value={command} label="Benchmark command" /> : null}
          </CardBody>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Runs</CardTitle>
        </CardHeader>
        <Table aria-label="Benchmark runs">
          <THead>
            <tr>
              <Th>Tool</Th>
              <Th>Workload</Th>
              <Th>Status</Th>
              <Th>Started</Th>
              <Th>Finished</Th>
            </tr>
          </THead>
          <TBody>
            {benchmarks.map((b) => (
              <Tr key={b.id}>
                <Td>{b.tool}</Td>
                <Td>{b.workload}</Td>
                <Td>
                  <OperationStatusBadge status={b.status} />
                </Td>
                <Td className="text-muted">{formatDateTime(b.created_at)}</Td>
                <Td className="text-muted">{formatDateTime(b.finished_at)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    </div>
  )
}
