// An API process started from its built dist file on a test's database, as the platform starts
// it (lib/platform.mjs: secrets only as mode-600 files, never in its environment), on a port of
// its own: the README's layout of several API processes on one PostgreSQL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../support/env.js';
import { MASTER_KEY } from './worker-process.js';

export const API_MAIN = path.join(ROOT, 'services', 'api', 'dist', 'main.js');

export interface ApiProcess {
  url: string;
  log(): string;
  stop(): Promise<void>;
}

export async function startApi(databaseUrl: string, dataDir: string, name: string, admin: { email: string; password: string }): Promise<ApiProcess> {
  if (!fs.existsSync(API_MAIN)) throw new Error(`the API is not built (${API_MAIN} missing)`);
  const { secretFiles } = await import(path.join(ROOT, 'scripts', 'lib', 'secrets.mjs'));
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const files = secretFiles(path.join(dataDir, `secrets-${name}`), { DATABASE_URL: databaseUrl, BASALT_MASTER_KEY: MASTER_KEY, BASALT_ADMIN_PASSWORD: admin.password });
  const port = await freePort();
  const logFile = path.join(dataDir, 'logs', `${name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const { DATABASE_URL, BASALT_MASTER_KEY, ...inherited } = process.env;
  void DATABASE_URL;
  void BASALT_MASTER_KEY;
  const child = spawn(process.execPath, [API_MAIN], {
    env: { ...inherited, ...files, NODE_ENV: 'production', BASALT_DATA_DIR: dataDir, BASALT_API_PORT: String(port), BASALT_ADMIN_EMAIL: admin.email },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const log = () => fs.readFileSync(logFile, 'utf8');
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited while starting:\n${log().slice(-2000)}`);
    const ok = await fetch(`${url}/v1/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`${name} did not answer within 120 s:\n${log().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
