// An instance's backup data key (AES-256-GCM): made once, with its archive row, sealed by the
// master key in PostgreSQL. The node gets it as a file (the engine seals what BACKUP READ
// returns with it); the worker opens segments and seals manifests with it.
import { decryptSecret, encryptSecret, type InstanceArchiveRow, type InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { newDataKey } from './sealed-object.js';

export async function instanceArchive(ctx: JobContext, instance: Pick<InstanceRow, 'id' | 'projectId'>): Promise<InstanceArchiveRow> {
  const backups = ctx.repo.backups();
  const made = await backups.getArchive(instance.id);
  if (made) return made;
  return backups.archiveOf(instance.id, instance.projectId, encryptSecret(ctx.config.masterKey, newDataKey().toString('base64')));
}

/** The key as the engine's key file and the worker take it: base64 of 32 bytes. */
export function dataKeyBase64(ctx: JobContext, archive: Pick<InstanceArchiveRow, 'dataKeyEncrypted'>): string {
  return decryptSecret(ctx.config.masterKey, archive.dataKeyEncrypted);
}

export function dataKey(ctx: JobContext, archive: Pick<InstanceArchiveRow, 'dataKeyEncrypted'>): Buffer {
  return Buffer.from(dataKeyBase64(ctx, archive), 'base64');
}
