'use client'
import { useState } from 'react'
import { METRICS_RANGE_CHOICES } from '@basalt/api-client/rules'
import { Alert } from '@/components/ui/alert'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { Instance } from '@/data/instances/instance-query'
import { useInstanceMetricsQuery } from '@/data/instances/instance-metrics-query'
import { MetricChart } from './metric-chart'
import { CHARTS } from './monitoring-charts'

const RANGE_LABELS: Record<(typeof METRICS_RANGE_CHOICES)[number], string> = {
  '15m': 'Last 15 minutes',
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
}

export function MonitoringTab({ projectId, instance }: { projectId: string; instance: Instance }) {
  const [range, setRange] = useState<string>('1h')
  const { data, error, isPending, isFetching } = useInstanceMetricsQuery(projectId, instance.id, range)
  const empty = data && data.series.every((s) => s.points.length === 0)
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="w-56 space-y-1">
          <Label htmlFor="metrics-range">Time range</Label>
          <Select value={range} onValueChange={setRange}>
            <SelectTrigger id="metrics-range" aria-label="Time range">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {METRICS_RANGE_CHOICES.map((r) => (
                <SelectItem key={r} value={r}>
                  {RANGE_LABELS[r]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <p className="text-xs text-muted" aria-live="polite">
          {isFetching ? 'Refreshing…' : 'Refreshes every 10 s'}
        </p>
      </div>
      {error ? <Alert tone="danger">Could not load the metrics: {error.message}</Alert> : null}
      {isPending && !error ? <p className="text-sm text-muted">Loading metrics…</p> : null}
      {empty ? (
        <Alert tone="info">
          No metrics in this range yet. Prometheus scrapes every node of a running instance every few seconds; charts fill in within a
          minute of the instance running.
        </Alert>
      ) : null}
      {data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          {CHARTS.map((spec) => (
            <MetricChart key={spec.title} metrics={data} spec={spec} />
          ))}
        </div>
      ) : null}
    </div>
  )
}
