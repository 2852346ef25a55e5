import { describe, expect, it } from 'vitest'
import type { InstanceMetrics } from '@/data/instances/instance-metrics-query'
import { CHARTS, chartRows, formatValue, latest } from './monitoring-charts'

const metrics = (series: InstanceMetrics['series']): InstanceMetrics => ({
  range: '15m', start: 0, end: 900, step_seconds: 10, window_seconds: 60, disk_limit_bytes: 2 * 1024 ** 3, series,
})

describe('monitoring charts', () => {
  it('joins series on time, one column per line', () => {
    const ops = CHARTS[0]
    const rows = chartRows(metrics([
      { key: 'ops_read', unit: 'ops/s', points: [{ t: 10, v: 5 }, { t: 20, v: 7 }] },
      { key: 'ops_write', unit: 'ops/s', points: [{ t: 20, v: 3 }] },
    ]), ops)
    expect(rows).toEqual([{ t: 10, ops_read: 5 }, { t: 20, ops_read: 7, ops_write: 3 }])
    expect(latest(rows, 'ops_read')).toBe(7)
  })

  it('shows latency in ms, the hit ratio in percent, and the disk size as a constant line', () => {
    const latency = CHARTS.find((c) => c.title.startsWith('Latency'))!
    expect(chartRows(metrics([{ key: 'latency_p99_read', unit: 'seconds', points: [{ t: 10, v: 0.0025 }] }]), latency)).toEqual([{ t: 10, latency_p99_read: 2.5 }])
    const disk = CHARTS.find((c) => c.title === 'Disk')!
    expect(chartRows(metrics([{ key: 'disk_used', unit: 'bytes', points: [{ t: 10, v: 4096 }] }]), disk)).toEqual([{ t: 10, disk_used: 4096, disk_limit: 2 * 1024 ** 3 }])
    expect(formatValue('percent', 99.54)).toBe('99.5 %')
    expect(formatValue('bytes', 1536)).toBe('1.5 KiB')
    expect(formatValue('ops', 12345.6)).toBe('12,346 ops/s')
  })

  it('draws nothing (the empty state) for a chart without points', () => {
    expect(chartRows(metrics([]), CHARTS[0])).toEqual([])
    expect(latest([], 'ops_read')).toBeUndefined()
  })
})
