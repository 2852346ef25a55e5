// Starts `node dist/main.js` against a fresh database on a free port, as production runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from './database.js';

export interface RunningApi {
  baseUrl: string;
  databaseUrl: string;
  adminEmail: string;
  adminPassword: string;
  masterKey: string;
  output(): string;
  stop(): Promise<void>;
}

const mainJs = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface StartOptions {
  /** Reuse this database instead of creating one (it is then not dropped on stop). */
  databaseUrl?: string;
  masterKey?: string;
}

export async function startApi(extraEnv: Record<string, string> = {}, options: StartOptions = {}): Promise<RunningApi> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => {} } : await createTestDatabase();
  const adminEmail = 'admin@example.com';
  const adminPassword = `pw-${randomBytes(8).toString('hex')}`;
  const masterKey = options.masterKey ?? randomBytes(32).toString('base64');
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      BASALT_API_PORT: '0',
      BASALT_API_HOST: '127.0.0.1',
      BASALT_ADMIN_EMAIL: adminEmail,
      BASALT_ADMIN_PASSWORD: adminPassword,
      BASALT_MASTER_KEY: masterKey,
      NO_COLOR: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on port (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`API exited with ${code}:\n${output}`)));
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await database.drop();
    throw error;
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    databaseUrl: database.url,
    adminEmail,
    adminPassword,
    masterKey,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await database.drop();
    },
  };
}
