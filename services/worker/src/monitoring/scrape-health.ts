// What Prometheus says of each instance's nodes, for the health monitor: a node with no
// successful scrape for a minute leaves the instance `degraded`, so health and the metrics the
// console charts never disagree (the charts of an instance called healthy are never empty).
import type { MonitoringConfig } from './monitoring-config.js';

/** No successful scrape in this window: the node's metrics are missing. */
export const SCRAPE_WINDOW = '1m';
/** An instance whose targets Prometheus has not even discovered after this long counts as unscraped. */
export const DISCOVERY_GRACE_MS = 90_000;

interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

/**
 * Per instance id, the nodes Prometheus scraped successfully in the last minute (`true`) or
 * tried and failed (`false`); an instance absent from the map has no target Prometheus knows.
 */
export async function scrapeStates(monitoring: MonitoringConfig, timeoutMs = 5_000): Promise<Map<string, Map<string, boolean>>> {
  const query = `max_over_time(up{job="basalt"}[${SCRAPE_WINDOW}])`;
  const url = `${monitoring.prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`;
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`Prometheus answered ${response.status} to the scrape check`);
  const body = (await response.json()) as { status: string; data?: { result?: VectorSample[] } };
  const states = new Map<string, Map<string, boolean>>();
  for (const sample of body.data?.result ?? []) {
    const instance = sample.metric.basalt_instance;
    if (!instance) continue;
    const nodes = states.get(instance) ?? new Map<string, boolean>();
    nodes.set(sample.metric.basalt_node ?? sample.metric.instance ?? '?', Number(sample.value[1]) > 0);
    states.set(instance, nodes);
  }
  return states;
}

/** Why the instance's metrics are missing, or null when every node was scraped in the window. */
export function unscrapedReason(nodes: Map<string, boolean> | undefined, runningSinceMs: number, now = Date.now()): string | null {
  if (!nodes) return now - runningSinceMs > DISCOVERY_GRACE_MS ? 'Prometheus has no scrape target for it' : null;
  const failing = [...nodes].filter(([, ok]) => !ok).map(([node]) => node);
  return failing.length > 0 ? `no metrics scraped from ${failing.join(', ')} for a minute` : null;
}
