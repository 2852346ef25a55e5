// The platform (API, worker, console) for e2e tests, started exactly as `npm start` starts it,
// against a fresh database and free ports, with its data dir in a temp folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './env.js';
import { createDatabase } from './database.js';

type Platform = { apiUrl: string; consoleUrl: string | null; admin: { email: string; password: string }; dataDir: string; stop: () => Promise<void> };

/** `env` goes to every process (e.g. BASALT_PROMETHEUS_URL of a Prometheus the test started). */
export async function startTestPlatform(opts: { worker?: boolean; console?: boolean; env?: Record<string, string> } = {}): Promise<Platform> {
  const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const db = await createDatabase('e2e');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-e2e-'));
  const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
  const secrets = { adminEmail: admin.email, adminPassword: admin.password, masterKey: Buffer.alloc(32, 7).toString('base64') };
  const platform = await startPlatform({
    dataDir, databaseUrl: db.url, apiPort: await freePort(), consolePort: await freePort(), secrets,
    worker: opts.worker ?? false, console: opts.console ?? false, env: opts.env ?? {},
  });
  return {
    apiUrl: platform.apiUrl,
    consoleUrl: platform.consoleUrl,
    admin,
    dataDir,
    stop: async () => {
      await platform.stop();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
