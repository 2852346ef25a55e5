// The platform's processes: API, worker and console, each supervised with its log in the data dir.
// Used by `npm start` and by the end-to-end tests, so both run the platform the same way.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, toolEnv } from './paths.mjs';
import { waitForHttp } from './net.mjs';
import { secretFiles, withoutSecrets } from './secrets.mjs';

const API_MAIN = path.join(ROOT, 'services', 'api', 'dist', 'main.js');
const WORKER_MAIN = path.join(ROOT, 'services', 'worker', 'dist', 'main.js');
const CONSOLE_DIR = path.join(ROOT, 'apps', 'console');

/** Restarts after an exit wait this long, doubling up to the last, back to the first after a minute up. */
const RESTART_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
const STEADY_MS = 60_000;

/**
 * Starts one child in its own process group, its output appended to logs/<name>.log. A child
 * that exits is started again (after RESTART_DELAYS_MS) when `restart(proc, code, delayMs)`
 * says so, until stopProc stops it: the worker exits on purpose when it loses its database
 * connection (no operation may then run twice), and comes back once the database is.
 */
export function supervise(name, cmd, args, { env, cwd, logDir, restart }) {
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const proc = { name, child: null, logFile, exited: false, code: null, stopped: false, restarts: 0 };
  let failures = 0;
  const start = () => {
    const out = fs.openSync(logFile, 'a');
    const child = spawn(cmd, args, { env, cwd: cwd ?? ROOT, stdio: ['ignore', out, out], detached: true });
    fs.closeSync(out);
    const startedAt = Date.now();
    Object.assign(proc, { child, exited: false, code: null });
    child.on('exit', (code, signal) => {
      Object.assign(proc, { exited: true, code: code ?? signal });
      if (!restart || proc.stopped) return;
      // Exits in a row, each less than a minute after its start, wait longer and longer.
      failures = Date.now() - startedAt >= STEADY_MS ? 1 : failures + 1;
      const delay = RESTART_DELAYS_MS[Math.min(failures - 1, RESTART_DELAYS_MS.length - 1)];
      if (!restart(proc, code ?? signal, delay)) return;
      setTimeout(() => {
        if (proc.stopped) return;
        proc.restarts++;
        start();
      }, delay).unref();
    });
  };
  start();
  return proc;
}

export function logTail(proc, n = 20) {
  try {
    return fs.readFileSync(proc.logFile, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}

export function stopProc(proc, graceMs = 5000) {
  proc.stopped = true;
  return new Promise((resolve) => {
    if (proc.exited) return resolve();
    const kill = (sig) => { try { process.kill(-proc.child.pid, sig); } catch { /* already gone */ } };
    const timer = setTimeout(() => kill('SIGKILL'), graceMs);
    proc.child.once('exit', () => { clearTimeout(timer); resolve(); });
    kill('SIGTERM');
  });
}

/**
 * Starts API, worker (when built) and console (when built) against `databaseUrl`.
 * Returns {apiUrl, consoleUrl, procs, stop}; throws with the failing process's log tail.
 * With `onRestart` (npm start), a process that exits once the platform is up is started
 * again; without (the tests, which kill and start workers of their own), it stays down.
 */
export async function startPlatform({ dataDir, databaseUrl, apiPort, consolePort, secrets, objectStore, worker = true, console: withConsole = true, env: extraEnv = {}, onRestart }) {
  const logDir = path.join(dataDir, 'logs');
  // No secret goes into a child's environment (where /proc/PID/environ and its own children
  // would see it): the API and the worker get NAME_FILE, a mode-600 file each. The keys of the
  // backup store the platform started (`objectStore`, lib/objectstore.mjs) go to the worker
  // and the API (which writes RDB uploads and streams RDB exports), never to the console; an
  // existing store's are named by its *_FILE settings themselves.
  const files = secretFiles(path.join(dataDir, 'secrets'), {
    DATABASE_URL: databaseUrl,
    BASALT_MASTER_KEY: secrets.masterKey,
    BASALT_ADMIN_PASSWORD: secrets.adminPassword,
    BASALT_BACKUP_S3_ACCESS_KEY: objectStore?.accessKey,
    BASALT_BACKUP_S3_SECRET_KEY: objectStore?.secretKey,
  });
  const shared = withoutSecrets({
    ...toolEnv(),
    NODE_ENV: 'production',
    BASALT_DATA_DIR: dataDir,
    BASALT_API_PORT: String(apiPort),
    BASALT_ADMIN_EMAIL: secrets.adminEmail,
    ...objectStore?.env,
    // Settings a test gives every process (quotas, worker concurrency, health interval).
    ...extraEnv,
  });
  const env = { ...shared, ...files };
  const apiEnv = env;
  // Only once every process is up: one that dies while starting fails the start, with its log.
  let up = false;
  const restart = onRestart && ((proc, code, delayMs) => up && (onRestart(proc, code, delayMs), true));
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const procs = [];
  const stop = async () => { await Promise.all(procs.reverse().map((p) => stopProc(p))); };
  const started = async (proc, url) => {
    procs.push(proc);
    try {
      await waitForHttp(url, { alive: () => !proc.exited, timeoutMs: 180_000 });
    } catch (err) {
      await stop();
      throw new Error(`${proc.name} failed to start: ${err.message}\n--- ${proc.logFile} ---\n${logTail(proc)}`);
    }
  };
  if (!fs.existsSync(API_MAIN)) throw new Error(`the API is not built (${path.relative(ROOT, API_MAIN)} missing)`);
  await started(supervise('api', process.execPath, [API_MAIN], { env: apiEnv, logDir, restart }), `${apiUrl}/v1/health`);
  if (worker && fs.existsSync(WORKER_MAIN)) {
    // The worker needs the database and the master key, not the admin's login.
    const { BASALT_ADMIN_EMAIL, BASALT_ADMIN_PASSWORD_FILE, ...workerEnv } = env;
    procs.push(supervise('worker', process.execPath, [WORKER_MAIN], { env: workerEnv, logDir, restart }));
  }
  let consoleUrl = null;
  if (withConsole && fs.existsSync(path.join(CONSOLE_DIR, '.next'))) {
    // server.mjs, not `next start`: it sets X-Forwarded-For from the real peer (see its header).
    // The console only proxies to the API: none of the platform's secrets (master key,
    // database URL, admin password), nor where they are, go into its environment.
    const { BASALT_ADMIN_EMAIL, BASALT_BACKUP_S3_ACCESS_KEY_FILE, BASALT_BACKUP_S3_SECRET_KEY_FILE, ...consoleShared } = shared;
    const consoleEnv = { ...consoleShared, BASALT_API_URL: apiUrl, PORT: String(consolePort), BASALT_CONSOLE_HOST: '127.0.0.1', NEXT_TELEMETRY_DISABLED: '1' };
    consoleUrl = `http://127.0.0.1:${consolePort}`;
    await started(
      supervise('console', process.execPath, [path.join(CONSOLE_DIR, 'server.mjs')], { env: consoleEnv, cwd: CONSOLE_DIR, logDir, restart }),
      consoleUrl,
    );
  }
  up = true;
  return { apiUrl, consoleUrl, procs, stop };
}
