// The instance metrics the API serves and the console charts (issue 16): one list of series,
// one range rule, shared by both so a chart never asks for what the API does not answer.

/** Time ranges the console offers; the API accepts any `<n>m|h|d` from 15 minutes to 7 days. */
export const METRICS_RANGE_CHOICES = ['15m', '1h', '6h', '24h', '7d'] as const;
export const METRICS_RANGE_MIN_SECONDS = 15 * 60;
export const METRICS_RANGE_MAX_SECONDS = 7 * 86_400;
/** How often the console asks again. */
export const METRICS_REFRESH_MS = 10_000;

/** Seconds of a range such as `1h`, or undefined when it is malformed or outside 15m..7d. */
export function parseMetricsRange(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,4})([mhd])$/.exec(text);
  if (!match) return undefined;
  const seconds = Number(match[1]) * { m: 60, h: 3600, d: 86_400 }[match[2] as 'm' | 'h' | 'd'];
  return seconds >= METRICS_RANGE_MIN_SECONDS && seconds <= METRICS_RANGE_MAX_SECONDS ? seconds : undefined;
}

/** The fixed series of an instance, with their unit (what the console's axes say). */
export const METRIC_SERIES = {
  ops_read: 'ops/s',
  ops_write: 'ops/s',
  ops_other: 'ops/s',
  latency_p50_read: 'seconds',
  latency_p99_read: 'seconds',
  latency_p50_write: 'seconds',
  latency_p99_write: 'seconds',
  memory_used: 'bytes',
  memory_max: 'bytes',
  connections: 'count',
  hit_ratio: 'ratio',
  disk_used: 'bytes',
  replication_lag: 'seconds',
  // The control plane's backup series (the worker serves them, docs/monitoring.md).
  archive_lag: 'seconds',
  backup_age: 'seconds',
} as const;
export type MetricSeriesKey = keyof typeof METRIC_SERIES;
export const METRIC_SERIES_KEYS = Object.keys(METRIC_SERIES) as MetricSeriesKey[];

/**
 * The series a request names (`series=ops_read,ops_write`), each once in the order first named,
 * or a problem: an unknown key, an empty list, or more names than there are series (each name
 * is one Prometheus query, so a list of repeats is refused rather than fanned out).
 */
export function parseMetricSeries(text: string | undefined): { ok: true; keys: MetricSeriesKey[] } | { ok: false; error: string } {
  if (text === undefined) return { ok: true, keys: METRIC_SERIES_KEYS };
  const names = text.split(',').map((k) => k.trim());
  if (names.length > METRIC_SERIES_KEYS.length) return { ok: false, error: `series names at most ${METRIC_SERIES_KEYS.length} keys; ${names.length} given` };
  const unknown = names.filter((k) => !(METRIC_SERIES_KEYS as string[]).includes(k));
  if (unknown.length > 0 || names.length === 0) return { ok: false, error: `series must be keys of: ${METRIC_SERIES_KEYS.join(', ')}` };
  return { ok: true, keys: [...new Set(names as MetricSeriesKey[])] };
}

/** Slow log entries the API returns at most per node (the engine keeps 128 by default). */
export const SLOWLOG_MAX_COUNT = 128;
