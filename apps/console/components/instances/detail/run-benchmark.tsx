'use client'
import { Play } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { BENCHMARK_WORKLOADS, useBenchmarkRunMutation, type BenchmarkWorkload } from '@/data/benchmarks/benchmark-run-mutation'
import type { Instance } from '@/data/instances/instance-query'

/** Starts a benchmark run on the instance itself with one of the published method's workloads. */
export function RunBenchmark({ projectId, instance }: { projectId: string; instance: Instance }) {
  const run = useBenchmarkRunMutation(projectId, instance.id)
  const [workload, setWorkload] = useState<BenchmarkWorkload>('memtier-default')
  const running = instance.status === 'running'
  return (
    <Card aria-labelledby="run-benchmark-title">
      <CardHeader>
        <CardTitle id="run-benchmark-title">Run a benchmark</CardTitle>
      </CardHeader>
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-96 max-w-full">
            <Field id="benchmark-workload" label="Workload">
              <Select value={workload} onValueChange={(v) => setWorkload(v as BenchmarkWorkload)}>
                <SelectTrigger id="benchmark-workload">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {BENCHMARK_WORKLOADS.map((w) => (
                    <SelectItem key={w.value} value={w.value}>
                      {w.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </Field>
          </div>
          <Button onClick={() => run.mutate(workload)} disabled={!running || run.isPending}>
            <Play className="size-4" aria-hidden /> Run benchmark
          </Button>
        </div>
        {!running ? <p className="text-xs text-muted">Benchmarks run against a running instance.</p> : null}
        {run.error ? <Alert tone="danger">{run.error.message}</Alert> : null}
        {run.isSuccess ? <Alert tone="success">Benchmark queued; its results appear below when it finishes.</Alert> : null}
      </CardBody>
    </Card>
  )
}
