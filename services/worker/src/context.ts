// What every job handler gets: settings, data access, and a log line writer.
import type { CatalogRepository, LeaseConnection, ProvisioningRepository } from '@basalt/db';
import type { WorkerConfig } from './config.js';
import type { UnavailableRegions } from './host-network.js';

export interface JobContext {
  config: WorkerConfig;
  repo: ProvisioningRepository;
  catalog: CatalogRepository;
  /** The one connection holding this worker's leases on operations and instances. */
  leases: LeaseConnection;
  /** Regions whose host side this worker could not set up: it takes none of their jobs. */
  unavailableRegions: UnavailableRegions;
  /** Engine features the deployed binary supports (users, allowlist, tls). */
  engineFeatures: ReadonlySet<string>;
  log: (message: string) => void;
  /**
   * Starts the instance's next operation in turn, after the one before it finished
   * (jobs/instance-turn.ts); set once the worker's recovery passes exist (reconcile.ts).
   */
  handOver?: (instanceId: string) => void;
}
