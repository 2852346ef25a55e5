'use client'
import { Play } from 'lucide-react'
import { useState } from 'react'
import { parseCustomFlags } from '@basalt/api-client/rules'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { OptionsSelect } from '@/components/ui/options-select'
import { BENCHMARK_SUITES, useBenchmarkRunMutation, type BenchmarkSuite } from '@/data/benchmarks/benchmark-run-mutation'
import type { Instance } from '@/data/instances/instance-query'

/** Flags as typed: split on whitespace, each token one argv entry (never a shell line). */
const tokensOf = (text: string) => text.split(/\s+/).filter(Boolean)

/** Starts a benchmark run on the instance itself: a standard suite, or one run with the customer's flags. */
export function RunBenchmark({ projectId, instance }: { projectId: string; instance: Instance }) {
  const run = useBenchmarkRunMutation(projectId, instance.id)
  const [suite, setSuite] = useState<BenchmarkSuite>('memtier-standard')
  const [flags, setFlags] = useState('--threads=1 --clients=8 --ratio=1:1 --data-size=512 --test-time=5')
  const running = instance.status === 'running'
  const parsed = suite === 'custom' ? parseCustomFlags(tokensOf(flags)) : undefined
  const flagsError = parsed && !parsed.ok ? parsed.error : undefined
  const start = () => run.mutate(suite === 'custom' ? { workload: suite, flags: tokensOf(flags) } : { workload: suite })
  return (
    <Card aria-labelledby="run-benchmark-title">
      <CardHeader>
        <CardTitle id="run-benchmark-title">Run a benchmark</CardTitle>
      </CardHeader>
      <CardBody className="space-y-3">
        <div className="flex flex-wrap items-end gap-3">
          <div className="w-96 max-w-full">
            <Field id="benchmark-suite" label="Suite">
              <OptionsSelect id="benchmark-suite" value={suite} options={BENCHMARK_SUITES} onChange={setSuite} />
            </Field>
          </div>
          <Button onClick={start} disabled={!running || run.isPending || flagsError !== undefined}>
            <Play className="size-4" aria-hidden /> Run benchmark
          </Button>
        </div>
        {suite === 'custom' ? (
          <Field
            id="benchmark-flags"
            label="basalt-bench flags"
            error={flagsError}
            hint="memtier_benchmark's load flags (threads, clients, requests or test-time, ratio, pipeline, data size, keys); the endpoint and credentials are filled in."
          >
            <Input
              id="benchmark-flags"
              value={flags}
              onChange={(e) => setFlags(e.target.value)}
              aria-invalid={flagsError !== undefined}
              className="font-mono"
              spellCheck={false}
            />
          </Field>
        ) : null}
        <p className="text-xs text-muted">
          The load runs as the instance&apos;s <code>default</code> user (or the first user that may write) and writes its
          keys into database 0, where they stay: memtier-standard uses <code>memtier-1</code> to <code>memtier-20000</code>;
          ycsb-standard YCSB&apos;s <code>user…</code> keys (50 000 per vCPU), and lowers the cache bound (maxmemory) for
          its memory:data runs, restoring it when it ends; canonical 8–16 byte keys starting with <code>c</code> over the
          memcached port, as canonical-tables does (which also lowers the cache bound for its low-memory run); memtier-matrix
          the same <code>memtier-</code> keys as memtier-standard; canonical-durability <code>canonical-1</code> onwards (20 000
          per vCPU), and sets appendfsync to always, then everysec, for its runs, putting the instance&apos;s policy back when
          it ends; a custom run its own --key-prefix and range (memtier&apos;s defaults: <code>memtier-0</code> to
          <code>memtier-10000000</code>). encryption-overhead writes nothing into the instance: it measures four engines of
          the same build that the run starts beside it on a VM of the same size (without encryption, with TLS, with
          encryption at rest, with both) and removes when it ends.
        </p>
        {!running ? <p className="text-xs text-muted">Benchmarks run against a running instance.</p> : null}
        {run.error ? <Alert tone="danger">{run.error.message}</Alert> : null}
        {run.isSuccess ? <Alert tone="success">Benchmark queued; its progress and results appear below.</Alert> : null}
      </CardBody>
    </Card>
  )
}
