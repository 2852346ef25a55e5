// Where the control plane's Prometheus is: its HTTP API and the directory its file-based
// service discovery reads (the platform starts one, scripts/lib/prometheus.mjs, or an operator
// names theirs). Without both, nothing is scraped and the health monitor does not ask.
export interface MonitoringConfig {
  prometheusUrl: string;
  sdDir: string;
  /**
   * Where this worker serves the control plane's own metrics (control-plane-metrics.ts) for
   * that Prometheus: BASALT_WORKER_METRICS_ADDRESS, `host:port`, default loopback on a free port.
   */
  metricsHost: string;
  metricsPort: number;
}

export function monitoringConfigOf(env: NodeJS.ProcessEnv): MonitoringConfig | undefined {
  const url = env.BASALT_PROMETHEUS_URL?.replace(/\/+$/, '');
  const sdDir = env.BASALT_PROMETHEUS_SD_DIR;
  if (!url || !sdDir) return undefined;
  const address = env.BASALT_WORKER_METRICS_ADDRESS ?? '127.0.0.1:0';
  const match = /^([0-9A-Za-z.:-]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(address);
  if (!match || Number(match[2]) > 65_535) throw new Error(`BASALT_WORKER_METRICS_ADDRESS must be host:port, not ${JSON.stringify(address)}`);
  return { prometheusUrl: url, sdDir, metricsHost: match[1]!.replace(/^\[|\]$/g, ''), metricsPort: Number(match[2]) };
}

/** The engine's admin HTTP port on every node (`/metrics`, `/healthz`). */
export const ENGINE_ADMIN_PORT = 9121;
