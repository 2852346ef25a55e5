// The API's only way to Prometheus: range queries built by instance-metrics.queries.ts (never
// a client's PromQL), over HTTP to BASALT_PROMETHEUS_URL on loopback.
import { ServiceUnavailable } from '../common/errors.js';

export interface RangeSeries {
  metric: Record<string, string>;
  values: [number, string][];
}

export async function queryRange(baseUrl: string, query: string, startSeconds: number, endSeconds: number, stepSeconds: number): Promise<RangeSeries[]> {
  const params = new URLSearchParams({ query, start: String(startSeconds), end: String(endSeconds), step: String(stepSeconds) });
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/api/v1/query_range`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: params,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new ServiceUnavailable(`Monitoring is unavailable: Prometheus did not answer (${(error as Error).message})`);
  }
  const body = (await response.json().catch(() => undefined)) as { status?: string; error?: string; data?: { result?: RangeSeries[] } } | undefined;
  if (!response.ok || body?.status !== 'success') {
    throw new ServiceUnavailable(`Monitoring is unavailable: Prometheus answered ${response.status}${body?.error ? `: ${body.error}` : ''}`);
  }
  return body.data?.result ?? [];
}
