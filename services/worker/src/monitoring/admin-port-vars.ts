// The engine role's admin-port settings for a deploy: on, with the scrape token's hash, when
// the control plane has a Prometheus; off otherwise (nothing would read it).
import type { MonitoringConfig } from './monitoring-config.js';
import { ENGINE_ADMIN_PORT } from './monitoring-config.js';
import { ensureScrapeToken, scrapeTokenHash } from './scrape-token.js';

export function adminPortVars(monitoring: Pick<MonitoringConfig, 'prometheusUrl' | 'sdDir'> | undefined): Record<string, unknown> {
  if (!monitoring) return { engine_admin_port: 0 };
  return { engine_admin_port: ENGINE_ADMIN_PORT, engine_admin_token_sha256: scrapeTokenHash(ensureScrapeToken(monitoring.sdDir)) };
}
