// The PromQL behind each series of an instance's metrics. Every query selects the instance's
// own series by both its id and its project (labels the worker's targets file sets), with the
// values escaped as PromQL strings; nothing of a request but the range reaches a query.
import type { MetricSeriesKey } from '@basalt/api-client/rules';

/** A PromQL string literal: backslash, double quote and line breaks escaped. */
export function promString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** Points per chart at most, and the step and rate window a range gets. */
const POINTS = 180;
const MIN_STEP_SECONDS = 10;
const MIN_WINDOW_SECONDS = 60;

export function stepFor(rangeSeconds: number): { step: number; window: number } {
  const step = Math.max(MIN_STEP_SECONDS, Math.ceil(rangeSeconds / POINTS));
  return { step, window: Math.max(MIN_WINDOW_SECONDS, 2 * step) };
}

export function instanceQueries(projectId: string, instanceId: string, windowSeconds: number): Record<MetricSeriesKey, string> {
  const sel = (extra = '') => `{job="basalt",basalt_project=${promString(projectId)},basalt_instance=${promString(instanceId)}${extra}}`;
  const w = `[${windowSeconds}s]`;
  const ops = (cls: string) => `sum(rate(basalt_command_class_duration_seconds_count${sel(`,class="${cls}"`)}${w}))`;
  const quantile = (q: number, cls: string) =>
    `histogram_quantile(${q}, sum by (le) (rate(basalt_command_class_duration_seconds_bucket${sel(`,class="${cls}"`)}${w})))`;
  const hits = `sum(rate(basalt_keyspace_hits_total${sel()}${w}))`;
  const misses = `sum(rate(basalt_keyspace_misses_total${sel()}${w}))`;
  return {
    ops_read: ops('read'),
    ops_write: ops('write'),
    ops_other: ops('other'),
    latency_p50_read: quantile(0.5, 'read'),
    latency_p99_read: quantile(0.99, 'read'),
    latency_p50_write: quantile(0.5, 'write'),
    latency_p99_write: quantile(0.99, 'write'),
    // The primary's figures (a replica holds the same data; summing would count it twice).
    memory_used: `max(basalt_memory_used_bytes${sel(',basalt_role="primary"')})`,
    memory_max: `max(basalt_memory_max_bytes${sel(',basalt_role="primary"')})`,
    connections: `sum(basalt_connected_clients${sel()})`,
    hit_ratio: `${hits} / (${hits} + ${misses})`,
    disk_used: `max(basalt_disk_log_bytes${sel(',basalt_role="primary"')})`,
    replication_lag: `max(basalt_replication_lag_seconds${sel()})`,
    // Served by the control plane (the worker), not the nodes: one per instance, max in case two answer.
    archive_lag: `max(basalt_archive_lag_seconds${sel()})`,
    backup_age: `max(basalt_backup_last_success_age_seconds${sel()})`,
  };
}
