// The platform (API + worker, no console) started as `npm start` starts it, against a
// fresh database, with its data dir kept so the tests can look at the VMs it made.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBasaltClient, type BasaltClient } from '@basalt/api-client';
import { ROOT } from '../../support/env.js';
import { createDatabase } from '../../support/database.js';
import { MASTER_KEY, removeDataDir } from './worker-process.js';

export interface ProvisioningPlatform {
  apiUrl: string;
  client: BasaltClient;
  projectId: string;
  dataDir: string;
  workerLog(): string;
  stop(): Promise<void>;
}

export async function startProvisioningPlatform(prefix: string): Promise<ProvisioningPlatform> {
  const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const db = await createDatabase(prefix);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `basalt-${prefix}-`));
  const admin = { email: 'admin@e2e.test', password: `pw-${Math.random().toString(36).slice(2)}` };
  const platform = await startPlatform({
    dataDir,
    databaseUrl: db.url,
    apiPort: await freePort(),
    consolePort: await freePort(),
    secrets: { adminEmail: admin.email, adminPassword: admin.password, masterKey: MASTER_KEY },
    worker: true,
    console: false,
  });
  const anonymous = createBasaltClient({ baseUrl: platform.apiUrl });
  const { data, response } = await anonymous.POST('/v1/auth/login', { body: admin });
  if (!data) throw new Error(`login failed: ${response.status}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
  return {
    apiUrl: platform.apiUrl,
    client: createBasaltClient({ baseUrl: platform.apiUrl, sessionCookie: cookie }),
    projectId: data.projects[0]!.id,
    dataDir,
    workerLog: () => {
      try {
        return fs.readFileSync(path.join(dataDir, 'logs', 'worker.log'), 'utf8');
      } catch {
        return '';
      }
    },
    stop: async () => {
      await platform.stop();
      await db.drop();
      removeDataDir(dataDir);
    },
  };
}
