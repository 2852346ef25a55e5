// A worker process started from its built dist file, exactly as the platform starts it,
// with its own data dir; the tests kill it, start another, and read its log.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../support/env.js';

export const WORKER_MAIN = path.join(ROOT, 'services', 'worker', 'dist', 'main.js');
export const MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

export interface WorkerProcess {
  child: ChildProcess;
  logFile: string;
  log(): string;
  /** False once it has exited or been killed. */
  running(): boolean;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The engine binary this test deploys, copied once into its data dir: a rebuild of
 * engine/target in the shared tree during the test must not count as a change.
 */
function pinnedEngine(dataDir: string): string {
  const pinned = path.join(dataDir, 'engine', 'basalt-server');
  if (!fs.existsSync(pinned)) {
    const built = process.env.BASALT_ENGINE_BIN ?? path.join(ROOT, 'engine', 'target', 'release', 'basalt-server');
    fs.mkdirSync(path.dirname(pinned), { recursive: true });
    fs.copyFileSync(built, pinned);
    fs.chmodSync(pinned, 0o755);
  }
  return pinned;
}

/** The environment the platform gives the worker (scripts/lib/paths.mjs toolEnv + secrets). */
export function workerEnv(databaseUrl: string, dataDir: string): NodeJS.ProcessEnv {
  const tools = path.join(ROOT, '.tools');
  return {
    ...process.env,
    BASALT_ROOT: ROOT,
    BASALT_ENGINE_BIN: pinnedEngine(dataDir),
    PATH: [path.join(tools, 'bin'), path.join(tools, 'ansible', 'bin'), process.env.PATH].join(path.delimiter),
    TF_CLI_CONFIG_FILE: path.join(tools, 'terraformrc'),
    CHECKPOINT_DISABLE: '1',
    DATABASE_URL: databaseUrl,
    BASALT_DATA_DIR: dataDir,
    BASALT_MASTER_KEY: MASTER_KEY,
    BASALT_RECONCILE_INTERVAL_MS: '5000',
  };
}

export function startWorker(databaseUrl: string, dataDir: string, name = 'worker', extraEnv: NodeJS.ProcessEnv = {}): WorkerProcess {
  if (!fs.existsSync(WORKER_MAIN)) throw new Error(`the worker is not built (${WORKER_MAIN} missing)`);
  const logDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { ...workerEnv(databaseUrl, dataDir), ...extraEnv },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    logFile,
    log: () => fs.readFileSync(logFile, 'utf8'),
    running,
    kill: async (signal = 'SIGTERM') => {
      if (!running()) return;
      child.kill(signal);
      await exited;
    },
  };
}
