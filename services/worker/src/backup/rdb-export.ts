// An RDB export of a backup (issue 44): the backup fetched and checked into a directory of the
// operation's own (restore.ts, to the backup's end), `basalt-rdb export` opening it offline
// (the engine's own recovery to recovery.target) and writing RDB 10, then the file sealed with
// the instance's data key, frame by frame as it is read, and stored at
//   instances/<instance>/exports/<export>.rdb
// which the API opens, again frame by frame, as it streams a download. The plain data leaves
// this host's disk whatever happened.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { InstanceRow, RdbExportRow } from '@basalt/db';
import { sealStream } from '@basalt/db/sealed-stream';
import type { JobContext } from '../context.js';
import type { OperationRun } from '../operation.js';
import { requireBackupStore } from './backup-store.js';
import { dataKey } from './data-key.js';
import { fetchRestore, planRestore } from './restore.js';
import { rdbExport } from './rdb-tool.js';
import { instancePrefix } from './archive-objects.js';
import { StepError } from '../errors.js';

export function exportObjectKey(instanceId: string, exportId: string): string {
  return `${instancePrefix(instanceId)}exports/${exportId}.rdb`;
}

export async function exportRdb(ctx: JobContext, run: OperationRun<'fetch_backup' | 'write_rdb' | 'store_rdb'>, instance: InstanceRow, row: RdbExportRow): Promise<{ objectKey: string; sizeBytes: number }> {
  const store = requireBackupStore(ctx, 'fetch_backup');
  const dir = path.join(ctx.config.runsDir, instance.id, run.operationId, 'rdb-export');
  const data = path.join(dir, 'data');
  const out = path.join(dir, 'export.rdb');
  try {
    await run.step('fetch_backup', async () => {
      const plan = await planRestore(ctx, store, { backup_id: row.backupId });
      const { bytes } = await fetchRestore(ctx, store, plan, data);
      await run.event('rdb_export', 'fetch_backup', `fetched ${plan.segments.length} segment(s), ${bytes} bytes, of backup ${row.backupId} (to LSN ${plan.manifest.end_lsn})`);
    });
    await run.step('write_rdb', async () => {
      const said = await rdbExport(ctx, 'write_rdb', data, out);
      await run.event('rdb_export', 'write_rdb', said);
    });
    return await run.step('store_rdb', async () => {
      const archive = await ctx.repo.backups().getArchive(row.instanceId);
      if (!archive) throw new StepError('store_rdb', `instance ${row.instanceId} has no data key`);
      const objectKey = exportObjectKey(row.instanceId, row.id);
      const sealed = `${out}.sealed`;
      await pipeline(fs.createReadStream(out), sealStream(dataKey(ctx, archive), objectKey), fs.createWriteStream(sealed, { mode: 0o600 }));
      await store.put(objectKey, { path: sealed });
      const sizeBytes = (await fsp.stat(out)).size;
      await run.event('rdb_export', 'store_rdb', `stored ${sizeBytes} bytes of RDB sealed at ${objectKey}`);
      return { objectKey, sizeBytes };
    });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
