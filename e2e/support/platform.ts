// The platform (API, worker, console) for e2e tests, started exactly as `npm start` starts it,
// against a fresh database and free ports, with its data dir in a temp folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './env.js';
import { createDatabase } from './database.js';
import { describedStore, startStackObjectStore, type StackObjectStore } from './object-store.js';

/** A started platform; `objectStore`: its own backup store, for a test to look into. */
type Platform = { apiUrl: string; consoleUrl: string | null; admin: { email: string; password: string }; dataDir: string; objectStore?: StackObjectStore; stop: () => Promise<void> };

/**
 * `env` goes to every process (e.g. BASALT_PROMETHEUS_URL of a Prometheus the test started).
 * `objectStore`: an embedded backup store of the stack's own (lib/objectstore.mjs, a few seconds
 * and about 120 MB), whose settings the API and worker get as `npm start` gives them; without
 * it backups are off, which is all a stack that takes none needs.
 */
export async function startTestPlatform(opts: { worker?: boolean; console?: boolean; objectStore?: boolean; env?: Record<string, string> } = {}): Promise<Platform> {
  const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const db = await createDatabase('e2e');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-e2e-'));
  const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
  const secrets = { adminEmail: admin.email, adminPassword: admin.password, masterKey: Buffer.alloc(32, 7).toString('base64') };
  const objectStore = opts.objectStore ? await startStackObjectStore(dataDir) : undefined;
  let platform;
  try {
    platform = await startPlatform({
      dataDir, databaseUrl: db.url, apiPort: await freePort(), consolePort: await freePort(), secrets, objectStore,
      worker: opts.worker ?? false, console: opts.console ?? false, env: opts.env ?? {},
    });
  } catch (error) {
    await objectStore?.stop();
    throw error;
  }
  return {
    apiUrl: platform.apiUrl,
    consoleUrl: platform.consoleUrl,
    admin,
    dataDir,
    objectStore: objectStore && describedStore(objectStore),
    stop: async () => {
      await platform.stop();
      await objectStore?.stop();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
