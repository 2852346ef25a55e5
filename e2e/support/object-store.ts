// A test stack's own backup store (scripts/lib/objectstore.mjs: SeaweedFS, a few seconds and
// about 120 MB), with a key pair of its own, and what a test needs to look into it.
import crypto from 'node:crypto';
import path from 'node:path';
import { ROOT } from './env.js';

/** Where the store is and its key pair. */
export type StackObjectStore = { endpoint: string; bucket: string; region: string; accessKey: string; secretKey: string };
type Started = StackObjectStore & { stop(): Promise<void> };

export async function startStackObjectStore(dataDir: string): Promise<Started> {
  const { startObjectStore } = await import(path.join(ROOT, 'scripts', 'lib', 'objectstore.mjs'));
  return startObjectStore({ dir: path.join(dataDir, 'objectstore'), accessKey: `E2E${crypto.randomBytes(8).toString('hex').toUpperCase()}`, secretKey: crypto.randomBytes(24).toString('base64url') });
}

export function describedStore(store: Started): StackObjectStore {
  return { endpoint: store.endpoint, bucket: store.bucket, region: store.region, accessKey: store.accessKey, secretKey: store.secretKey };
}
