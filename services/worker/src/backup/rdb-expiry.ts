// RDB files past their time (issue 44), removed by the backup scheduler's round: an export's
// object and row 24 hours after it was asked for (the API refuses its download from then on),
// an upload's once no create can start from it any more.
import type { JobContext } from '../context.js';
import type { ObjectStore } from './object-store.js';

export async function removeExpiredRdbFiles(ctx: JobContext, store: ObjectStore, now: Date): Promise<void> {
  const files = ctx.repo.rdbFiles();
  for (const row of await files.expiredExports(now)) {
    // A pending or running export past its time has nothing stored yet, or its job stores it
    // under this key still: the key is removed either way, and a later run finds no row.
    if (row.objectKey) await store.deleteMany([row.objectKey]);
    await files.removeExport(row.id);
    ctx.log(`backup scheduler: removed expired RDB export ${row.id} of ${row.instanceId}`);
  }
  for (const row of await files.expiredImports(now)) {
    await store.deleteMany([row.objectKey]);
    await files.removeImport(row.id);
    ctx.log(`backup scheduler: removed expired RDB upload ${row.id} of project ${row.projectId}`);
  }
}
