// `npm start`: bootstrap, then PostgreSQL, Prometheus, the backup object store, API, worker and
// console; prints where to go and how to log in. Ctrl-C stops everything; a second run reuses
// the data and the builds.
import path from 'node:path';
import { bootstrap } from './bootstrap.mjs';
import { DATA } from './lib/paths.mjs';
import { portInUse } from './lib/net.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { startPrometheus } from './lib/prometheus.mjs';
import { externalObjectStore, startObjectStore } from './lib/objectstore.mjs';
import { loadSecrets, SECRET_VARIABLES } from './lib/secrets.mjs';
import { logTail, startPlatform } from './lib/platform.mjs';

const dataDir = process.env.BASALT_DATA_DIR ? path.resolve(process.env.BASALT_DATA_DIR) : DATA;
const apiPort = Number(process.env.BASALT_API_PORT || 8080);
const consolePort = Number(process.env.BASALT_CONSOLE_PORT || 3000);
const prometheusPort = Number(process.env.BASALT_PROMETHEUS_PORT || 9390);

async function main() {
  const t0 = Date.now();
  // The secrets the environment gives are read once: from here on no child (the bootstrap's
  // builds, PostgreSQL, Prometheus, API, worker, console) inherits one from this process; the
  // API and the worker get theirs as files (lib/platform.mjs).
  const given = Object.fromEntries(SECRET_VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of SECRET_VARIABLES) delete process.env[name];
  if (!process.argv.includes('--no-bootstrap')) await bootstrap();
  const ports = [['API', apiPort, 'BASALT_API_PORT'], ['console', consolePort, 'BASALT_CONSOLE_PORT']];
  if (!process.env.BASALT_PROMETHEUS_URL) ports.push(['Prometheus', prometheusPort, 'BASALT_PROMETHEUS_PORT']);
  for (const [name, port, variable] of ports) {
    if (await portInUse(port)) throw new Error(`port ${port} for the ${name} is taken; free it or set ${variable}`);
  }
  const secrets = loadSecrets(dataDir, given);
  const pg = await startPostgres({ dir: path.join(dataDir, 'pg'), database: 'basalt', password: secrets.pgPassword, url: given.DATABASE_URL });
  let platform;
  let prometheus;
  let objectStore;
  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return; // children exiting because we stop them are not failures
    stopping = true;
    await platform?.stop();
    await prometheus?.stop();
    await objectStore?.stop();
    await pg.stop().catch(() => {});
    process.exit(code);
  };
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  try {
    prometheus = await startPrometheus({
      dir: path.join(dataDir, 'prometheus'),
      port: prometheusPort,
      scrapeInterval: process.env.BASALT_PROMETHEUS_SCRAPE_INTERVAL || '10s',
      retention: process.env.BASALT_PROMETHEUS_RETENTION || '15d',
      logDir: path.join(dataDir, 'logs'),
    });
    // A process that dies once all are up is started again; the others go on meanwhile.
    const onRestart = (proc, code, delayMs) => {
      if (stopping) return;
      console.error(`\n${proc.name} exited (${code}); starting it again in ${delayMs / 1000} s. Its last lines:\n${logTail(proc)}`);
    };
    // BASALT_BACKUP_S3_* name an existing store: the worker reads them from the environment.
    if (!externalObjectStore()) {
      objectStore = await startObjectStore({
        dir: path.join(dataDir, 'objectstore'),
        accessKey: secrets.objectStoreAccessKey,
        secretKey: secrets.objectStoreSecretKey,
        logDir: path.join(dataDir, 'logs'),
        onRestart,
      });
    }
    platform = await startPlatform({ dataDir, databaseUrl: pg.url, apiPort, consolePort, secrets, objectStore, env: prometheus.env, onRestart });
  } catch (err) {
    console.error(err.message);
    return shutdown(1);
  }
  const lines = [
    ['Console', platform.consoleUrl ?? '(not built)'],
    ['API', `${platform.apiUrl}/v1`],
    ['API docs', `${platform.apiUrl}/docs  (OpenAPI: ${platform.apiUrl}/v1/openapi.json)`],
    ['Login', `${secrets.adminEmail} / ${secrets.adminPassword}`],
    ['Prometheus', prometheus.external ? prometheus.url : `${prometheus.url}  (data in ${path.join(dataDir, 'prometheus')})`],
    ['Backups', objectStore ? `${objectStore.endpoint}/${objectStore.bucket}  (SeaweedFS, data in ${path.join(dataDir, 'objectstore')})` : `${process.env.BASALT_BACKUP_S3_ENDPOINT || 'AWS S3'}, bucket ${process.env.BASALT_BACKUP_S3_BUCKET || '(none)'}`],
    ['Database', pg.external ? 'DATABASE_URL' : `embedded PostgreSQL in ${path.join(dataDir, 'pg')}`],
    ['Logs', path.join(dataDir, 'logs')],
  ];
  const width = Math.max(...lines.map(([, v]) => v.length)) + 14;
  console.log(`\n${'='.repeat(width)}\n Basalt is up (${((Date.now() - t0) / 1000).toFixed(1)} s)\n${'-'.repeat(width)}`);
  for (const [k, v] of lines) console.log(` ${k.padEnd(10)}  ${v}`);
  console.log(`${'='.repeat(width)}\n Ctrl-C stops everything.\n`);
}

main().catch((err) => {
  console.error(`npm start: ${err.message}`);
  process.exit(1);
});
