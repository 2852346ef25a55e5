// Where the control plane's Prometheus is: its HTTP API and the directory its file-based
// service discovery reads (the platform starts one, scripts/lib/prometheus.mjs, or an operator
// names theirs). Without both, nothing is scraped and the health monitor does not ask.
export interface MonitoringConfig {
  prometheusUrl: string;
  sdDir: string;
}

export function monitoringConfigOf(env: NodeJS.ProcessEnv): MonitoringConfig | undefined {
  const url = env.BASALT_PROMETHEUS_URL?.replace(/\/+$/, '');
  const sdDir = env.BASALT_PROMETHEUS_SD_DIR;
  if (!url || !sdDir) return undefined;
  return { prometheusUrl: url, sdDir };
}

/** The engine's admin HTTP port on every node (`/metrics`, `/healthz`). */
export const ENGINE_ADMIN_PORT = 9121;
