// The object store as the API reaches it (ApiConfig.objectStore, the worker's settings and key
// files): RDB uploads are written to it and RDB exports read from it. One client per process.
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ObjectStore } from '@basalt/db/object-store';
import { ApiConfig } from '../config.js';
import { NotConfigured } from '../common/errors.js';

@Injectable()
export class RdbStore implements OnModuleDestroy {
  private store: ObjectStore | undefined;

  constructor(private readonly config: ApiConfig) {}

  /** The store; 404 not_configured on a platform without one (backups are off). */
  require(): ObjectStore {
    if (!this.config.objectStore) throw new NotConfigured('RDB files need the object store backups go to; none is configured (BASALT_BACKUP_S3_BUCKET)');
    this.store ??= new ObjectStore(this.config.objectStore);
    return this.store;
  }

  onModuleDestroy(): void {
    this.store?.close();
  }
}
