// The platform for browser tests, started as `npm start` starts it (scripts/lib/platform.mjs)
// against a fresh database; unlike ../../support/platform.ts it also hands back the database
// URL, so a test can write what the worker writes through @basalt/db.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../support/database.js';
import { ROOT } from '../../support/env.js';

export interface ConsolePlatform {
  apiUrl: string;
  consoleUrl: string;
  databaseUrl: string;
  admin: { email: string; password: string };
  stop: () => Promise<void>;
}

/** `env` goes to the API (e.g. a larger quota for a test that creates many instances). */
export async function startConsolePlatform(env: NodeJS.ProcessEnv = {}): Promise<ConsolePlatform> {
  const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const db = await createDatabase('e2e_console');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-console-e2e-'));
  const admin = { email: 'admin@console.test', password: `pw-${Math.random().toString(36).slice(2)}-x` };
  const secrets = { adminEmail: admin.email, adminPassword: admin.password, masterKey: Buffer.alloc(32, 9).toString('base64') };
  const cleanup = async () => {
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let platform;
  try {
    platform = await startPlatform({
      dataDir, databaseUrl: db.url, apiPort: await freePort(), consolePort: await freePort(), secrets, worker: false, console: true, env,
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  if (!platform.consoleUrl) {
    await platform.stop();
    await cleanup();
    throw new Error('the console is not built: run `npm run build -w @basalt/console` (the bootstrap does)');
  }
  return {
    apiUrl: platform.apiUrl,
    consoleUrl: platform.consoleUrl,
    databaseUrl: db.url,
    admin,
    stop: async () => {
      await platform.stop();
      await cleanup();
    },
  };
}
