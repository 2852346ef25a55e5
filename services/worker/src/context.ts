// What every job handler gets: settings, data access, and a log line writer.
import type { CatalogRepository, ProvisioningRepository } from '@basalt/db';
import type { WorkerConfig } from './config.js';

export interface JobContext {
  config: WorkerConfig;
  repo: ProvisioningRepository;
  catalog: CatalogRepository;
  /** Engine features the deployed binary supports (users, allowlist, tls). */
  engineFeatures: ReadonlySet<string>;
  log: (message: string) => void;
}
