// Entry point: `node services/api/dist/main.js`. Migrates, seeds the catalog, ensures the first
// admin, then serves. With BASALT_API_WORKERS=N (> 1) the primary does the preparation once and
// forks N processes that share the port (node:cluster), restarting any that die.
import cluster from 'node:cluster';
import PgBoss from 'pg-boss';
import { CatalogRepository, createQueues, type Database, migrate, TypeReportsRepository, verifyMasterKey } from '@basalt/db';
import { loadPublishedReports } from './catalog/published-reports.js';
import { DATABASE } from './database/database.module.js';
import { createApp } from './app.factory.js';
import { type ApiConfig, loadConfig } from './config.js';
import { AuthService } from './auth/auth.service.js';
import { installClientErrorHandler } from './common/client-error.js';

/** Migrations, master-key check, catalog and its published reports, first admin, queues: once per start, before anything serves. */
async function prepare(config: ApiConfig): Promise<number> {
  const migrations = await migrate(config.databaseUrl);
  const { app } = await createApp(config);
  await verifyMasterKey(app.get<Database>(DATABASE).db, config.masterKey);
  await app.get(CatalogRepository).seed();
  const published = await loadPublishedReports(app.get(CatalogRepository), app.get(TypeReportsRepository));
  if (published.length) console.log(`Published reports loaded into the catalog: ${published.join(', ')}`);
  await app.get(AuthService).ensureAdmin();
  const boss = app.get(PgBoss);
  await boss.start();
  await createQueues(boss);
  await boss.stop({ graceful: false, wait: true });
  await app.close();
  return migrations;
}

async function serve(config: ApiConfig, migrations: number): Promise<void> {
  const { app } = await createApp(config);
  const boss = app.get(PgBoss);
  boss.on('error', (error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();
  await app.listen(config.port, process.env.BASALT_API_HOST ?? '0.0.0.0');
  const server = app.getHttpServer();
  // Idle keep-alive connections outlive a proxy's (60 s), so the server never closes one that a
  // client (console proxy, load balancer) is just reusing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  installClientErrorHandler(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Tests and scripts read this line to learn the port when BASALT_API_PORT=0.
  console.log(`Basalt API listening on port ${port} (${migrations} migrations applied)`);
}

function supervise(count: number): void {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i++) fork();
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    console.error(`API worker ${worker.process.pid} exited (${code}); starting another`);
    setTimeout(fork, 1000);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      setTimeout(() => process.exit(0), 5000).unref();
      cluster.on('exit', () => {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      });
    });
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  const workers = Number(process.env.BASALT_API_WORKERS ?? '1');
  if (cluster.isWorker) return serve(config, Number(process.env.BASALT_API_MIGRATIONS ?? '0'));
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) throw new Error('BASALT_API_WORKERS must be an integer from 1 to 64');
  const migrations = await prepare(config);
  if (workers === 1) return serve(config, migrations);
  process.env.BASALT_API_MIGRATIONS = String(migrations);
  supervise(workers);
}

main().catch((error: unknown) => {
  console.error(`Basalt API failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
