// The worker process: pg-boss consumer of the instance queues. Any number of workers on
// any number of machines share the queues; on start (and then periodically) each one
// finishes operations whose worker died.
import PgBoss from 'pg-boss';
import { CatalogRepository, createDatabase, createQueues, LeaseConnection, migrate, ProvisioningRepository, SecretEnvError } from '@basalt/db';
import { ConfigError, loadConfig } from './config.js';
import { armFault } from './fault-hook.js';
import type { JobContext } from './context.js';
import { handle, HANDLERS, queueName, type HandledQueue } from './handlers.js';
import { Reconciler } from './reconcile.js';
import { QueueDispatcher } from './dispatcher.js';
import { detectEngineFeatures } from './engine-features.js';
import { JobSlots } from './job-slots.js';
import { architecturesServed, hostRegions, prepareHostNetwork } from './host-network.js';
import { reconcileFirewalls } from './firewall/instance-firewall.js';
import { HealthMonitor } from './health-monitor.js';
import { FailoverMonitor } from './failover/monitor.js';
import { Archiver } from './backup/archiver.js';
import { BackupScheduler } from './backup/backup-scheduler.js';
import { ARCHIVE_PASS_INTERVAL_MS } from './backup/backup-vars.js';
import { startPasswordExpiry } from './password-expiry.js';
import { reconcileScrapeTargets } from './monitoring/scrape-targets.js';
import { ensureScrapeToken } from './monitoring/scrape-token.js';
import { ControlPlaneMetrics } from './monitoring/control-plane-metrics.js';
import { backupMetrics } from './backup/backup-metrics.js';
import { backupStoreOf } from './backup/backup-store.js';

function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} worker ${message}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  armFault(config.fault, log);
  await migrate(config.databaseUrl);
  // Each job (and the reconciler, and the health monitor) runs one query at a time, and the
  // leases sit on a connection of their own: a slot per job and a few spare never run out.
  const slots = new JobSlots(config.concurrency);
  const database = createDatabase(config.databaseUrl, { max: config.concurrency * 2 + 4, connectionTimeoutMillis: 30_000 });
  const leases = new LeaseConnection(config.databaseUrl, (error) => {
    // Every lease this worker held is gone, so another worker may take its operations over:
    // it must not go on with them.
    log(`lost the lease connection (${error.message}); exiting so that no operation runs twice`);
    process.exit(1);
  });
  await leases.open();
  const boss = new PgBoss({ connectionString: config.databaseUrl, max: 4 });
  boss.on('error', (error) => log(`queue error: ${error.message}`));
  await boss.start();
  await createQueues(boss);

  const features = [...(await detectEngineFeatures(config.engineBinary))];
  const catalog = new CatalogRepository(database.db);
  // The catalog may not be seeded yet (the API seeds it too): the region's row must be there
  // for this worker's verdict on it to be written.
  await catalog.seed();
  const regions = await catalog.listRegions();
  const unavailableRegions = await prepareHostNetwork(config, regions);
  for (const [region, reason] of unavailableRegions) log(`region ${region}: ${reason}; taking none of its jobs, and the API creates no instance there`);
  const architectures = architecturesServed(config);
  for (const region of hostRegions(regions)) {
    await catalog.setRegionCapabilities(region.id, { unavailableReason: unavailableRegions.get(region.id) ?? null, architectures });
  }
  const ctx: JobContext = {
    config,
    repo: new ProvisioningRepository(database.db, database.pool),
    catalog,
    leases,
    unavailableRegions,
    engineFeatures: new Set(features),
    log,
  };

  // Every instance's firewall matches PostgreSQL again, whatever a killed worker left.
  await reconcileFirewalls(ctx).catch((error: Error) => log(`firewall reconcile: ${error.message}`));

  if (config.monitoring) {
    // Prometheus scrapes with the token from the first scrape on; targets catch up with
    // whatever changed while no worker ran.
    ensureScrapeToken(config.monitoring.sdDir);
    await reconcileScrapeTargets(ctx);
    log(`monitoring: scrape targets in ${config.monitoring.sdDir}, Prometheus at ${config.monitoring.prometheusUrl}`);
  }

  const reconciler = new Reconciler(ctx, (work) => slots.run(work));
  ctx.handOver = (instanceId) => void reconciler.startNext(instanceId).catch((error: Error) => log(`handing instance ${instanceId} over: ${error.message}`));
  let reconciling = false;
  const reconcileNow = async () => {
    if (reconciling) return;
    reconciling = true;
    try {
      await reconciler.pass();
    } catch (error) {
      log(`reconcile failed: ${(error as Error).message}`);
    } finally {
      reconciling = false;
    }
  };
  void reconcileNow();
  const timer = setInterval(() => void reconcileNow(), config.reconcileIntervalMs);
  const stopPasswordExpiry = startPasswordExpiry(database, boss, log);

  const dispatchers = (Object.keys(HANDLERS) as HandledQueue[]).map(
    (key) =>
      new QueueDispatcher(
        boss,
        queueName(key),
        slots,
        config.pollingIntervalMs,
        async (job) => {
          const data = job.data as { instance_id?: unknown; operation_id?: unknown };
          if (typeof data.instance_id !== 'string' || typeof data.operation_id !== 'string') {
            log(`job ${job.id} on ${job.name} has no instance_id/operation_id; dropped`);
            return;
          }
          const outcome = await handle(ctx, key, job.data as never);
          log(`job ${job.id} ${job.name} operation ${data.operation_id}: ${outcome}`);
        },
        log,
      ),
  );
  for (const dispatcher of dispatchers) dispatcher.start();
  const health = new HealthMonitor(ctx, config.healthIntervalMs);
  health.start();
  const failovers = new FailoverMonitor(ctx, database.pool, boss, config.failoverIntervalMs);
  failovers.start();
  const archiver = new Archiver(ctx, ARCHIVE_PASS_INTERVAL_MS);
  archiver.start();
  const backupScheduler = new BackupScheduler(ctx, database.pool, boss, config.backupScheduleIntervalMs);
  backupScheduler.start();
  // The control plane's own series (backup age, archive lag) for the same Prometheus.
  const controlPlaneMetrics = config.monitoring && backupStoreOf(ctx) ? new ControlPlaneMetrics(ctx, config.monitoring, () => backupMetrics(ctx)) : undefined;
  await controlPlaneMetrics?.start();
  log(`ready: ${Object.keys(HANDLERS).length} queues, ${config.concurrency} jobs at a time, engine features [${features.join(', ')}]`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    clearInterval(timer);
    stopPasswordExpiry();
    await Promise.all([...dispatchers.map((d) => d.stop(30_000)), health.stop(), failovers.stop(), archiver.stop(), backupScheduler.stop(), controlPlaneMetrics?.stop()]);
    await boss.stop({ graceful: true, wait: true, timeout: 5_000 }).catch(() => {});
    await leases.close();
    await database.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  const message = error instanceof ConfigError || error instanceof SecretEnvError ? error.message : (error as Error).stack ?? String(error);
  process.stderr.write(`worker: ${message}\n`);
  process.exit(1);
});
