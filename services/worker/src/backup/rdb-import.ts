// The restore step of a create from an uploaded RDB file (issue 44): the file read from the
// store and opened with the import's own key frame by frame onto this host's disk, checked
// whole by `basalt-rdb check` (a file that is not a valid RDB fails the create with its reason
// and byte offset, before anything is written), read into an empty data dir by
// `basalt-rdb import`, and its log segments handed to the same restore playbook as a backup's,
// with a recovery.target that keeps every record (a time at or after the import's last).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { decryptSecret } from '@basalt/db';
import { openStream } from '@basalt/db/sealed-stream';
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import type { ObjectStore } from './object-store.js';
import { rdbCheck, rdbImport } from './rdb-tool.js';

const STEP = 'restore_data';
const SEGMENT = /^wal-[0-9]{10}\.log$/;

export interface RdbImported {
  rdb_import: string;
  target: { timeMs: number };
  /** What basalt-rdb said it imported. */
  imported: string;
}

/** Writes the import's segments and recovery.target into `dir` (made empty first). */
export async function fetchRdbImport(ctx: JobContext, store: ObjectStore, importId: string, dir: string): Promise<RdbImported> {
  const row = await ctx.repo.rdbFiles().getImportForJob(importId);
  if (!row) throw new StepError(STEP, `RDB import ${importId} does not exist (it expired, or was never stored)`);
  const work = `${dir}.rdb`;
  const file = path.join(work, 'upload.rdb');
  const data = path.join(work, 'data');
  await fsp.rm(work, { recursive: true, force: true });
  await fsp.mkdir(work, { recursive: true, mode: 0o700 });
  try {
    const key = Buffer.from(decryptSecret(ctx.config.masterKey, row.dataKeyEncrypted), 'base64');
    try {
      const { body } = await store.get(row.objectKey);
      await pipeline(body, openStream(key, row.objectKey), fs.createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      throw new StepError(STEP, `RDB import ${importId}: ${(error as Error).message}`);
    }
    await rdbCheck(ctx, STEP, file);
    const imported = await rdbImport(ctx, STEP, file, data);
    // Every record the import wrote has a time at or before now: replay keeps them all.
    const target = { timeMs: Date.now() + 1000 };
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
    const segments = (await fsp.readdir(data)).filter((name) => SEGMENT.test(name));
    if (segments.length === 0) throw new StepError(STEP, `basalt-rdb import wrote no log segment: ${imported}`);
    for (const name of segments) await fsp.rename(path.join(data, name), path.join(dir, name));
    await fsp.writeFile(path.join(dir, 'recovery.target'), `# import of RDB ${importId}\ntime-ms=${target.timeMs}\n`, { mode: 0o600 });
    return { rdb_import: importId, target, imported };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
