'use client'
import { Square } from 'lucide-react'
import { BenchmarkChart } from '@/components/benchmarks/benchmark-chart'
import { basaltVsPeer } from '@/components/benchmarks/benchmark-charts'
import { BenchmarkCommands, BenchmarkResultsTable } from '@/components/benchmarks/benchmark-results'
import { benchmarkRows } from '@/components/benchmarks/benchmark-rows'
import { EncryptionOverheadTable, encryptionOverheadChart } from '@/components/benchmarks/encryption-overhead'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { useBenchmarkCancelMutation } from '@/data/benchmarks/benchmark-cancel-mutation'
import { useInstanceBenchmarksQuery, type Benchmark } from '@/data/benchmarks/instance-benchmarks-query'
import type { Instance } from '@/data/instances/instance-query'
import { queryKeys } from '@/data/keys'
import { formatDateTime } from '../format'
import { OperationProgressCard } from './operation-progress-card'
import { OperationStatusBadge } from './operation-status-badge'
import { RunBenchmark } from './run-benchmark'

export function BenchmarksTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  return (
    <div className="space-y-5">
      <RunBenchmark projectId={projectId} instance={instance} />
      <BenchmarkRuns projectId={projectId} instance={instance} />
    </div>
  )
}

const unfinished = (b: Benchmark) => b.status === 'pending' || b.status === 'running'

function BenchmarkRuns({ projectId, instance }: { projectId: string; instance: Instance }) {
  const { data: benchmarks, error, isPending } = useInstanceBenchmarksQuery(projectId, instance.id)
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
  const latest = benchmarks[0]!
  // The instance's current operation is the latest run's while it is the last thing asked of it.
  const operation = instance.current_operation?.id === latest.operation_id ? instance.current_operation : null
  return (
    <div className="space-y-5">
      {operation && unfinished(latest) ? <OperationProgressCard operation={operation} refreshes={queryKeys.instances.all(projectId)} /> : null}
      <LatestRun projectId={projectId} instanceId={instance.id} benchmark={latest} />
      <Card>
        <CardHeader>
          <CardTitle>Runs</CardTitle>
        </CardHeader>
        <Table aria-label="Benchmark runs">
          <THead>
            <tr>
              <Th>Tool</Th>
              <Th>Suite</Th>
              <Th>Status</Th>
              <Th className="text-right">Scenarios</Th>
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
                <Td className="text-right tabular-nums">{b.scenarios.length}</Td>
                <Td className="text-muted">{formatDateTime(b.started_at ?? b.created_at)}</Td>
                <Td className="text-muted">{formatDateTime(b.finished_at)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      </Card>
    </div>
  )
}

function LatestRun({ projectId, instanceId, benchmark }: { projectId: string; instanceId: string; benchmark: Benchmark }) {
  const cancel = useBenchmarkCancelMutation(projectId, instanceId)
  const rows = benchmarkRows(benchmark)
  const cancelling = benchmark.cancel_requested_at !== null || cancel.isPending
  return (
    <Card aria-labelledby="latest-benchmark-title">
      <CardHeader>
        <CardTitle id="latest-benchmark-title">
          Latest run: {benchmark.tool} · {benchmark.workload}
        </CardTitle>
        <span className="flex items-center gap-2">
          <OperationStatusBadge status={benchmark.status} />
          {unfinished(benchmark) ? (
            <Button variant="secondary" onClick={() => cancel.mutate(benchmark.id)} disabled={cancelling}>
              <Square className="size-4" aria-hidden /> {cancelling ? 'Cancelling…' : 'Cancel'}
            </Button>
          ) : null}
        </span>
      </CardHeader>
      <CardBody className="space-y-4">
        {cancel.error ? <Alert tone="danger">{cancel.error.message}</Alert> : null}
        {rows.length === 0 ? (
          <p className="text-sm text-muted">{unfinished(benchmark) ? 'No scenario has finished yet.' : 'No scenario was measured.'}</p>
        ) : (
          <>
            {benchmark.workload === 'encryption-overhead' ? (
              <BenchmarkChart title="Median ops/s by value size and encryption" chart={encryptionOverheadChart(benchmark)} unit="ops/s" />
            ) : (
              <BenchmarkChart title="Throughput by workload" chart={basaltVsPeer(rows, 'ops')} unit="ops/s" />
            )}
            {benchmark.workload === 'encryption-overhead' ? <EncryptionOverheadTable benchmark={benchmark} /> : <BenchmarkResultsTable rows={rows} />}
            <BenchmarkCommands benchmark={benchmark} />
          </>
        )}
      </CardBody>
    </Card>
  )
}
