// The object store this worker's backups go to (config.backupStore), one client per process.
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import { ObjectStore } from './object-store.js';

let client: { config: unknown; store: ObjectStore } | undefined;

/** The store, or undefined when this worker has none configured (backups are off). */
export function backupStoreOf(ctx: JobContext): ObjectStore | undefined {
  const config = ctx.config.backupStore;
  if (!config) return undefined;
  if (client?.config !== config) client = { config, store: new ObjectStore(config) };
  return client.store;
}

/** The store, for a step that cannot go on without one. */
export function requireBackupStore(ctx: JobContext, step: string): ObjectStore {
  const store = backupStoreOf(ctx);
  if (!store) throw new StepError(step, 'backups are off on this worker: no object store is configured (BASALT_BACKUP_S3_BUCKET)');
  return store;
}
