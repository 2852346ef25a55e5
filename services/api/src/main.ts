// Entry point: `node services/api/dist/main.js`. Migrates, seeds, ensures the first admin, listens.
import PgBoss from 'pg-boss';
import { CatalogRepository, createQueues, migrate } from '@basalt/db';
import { createApp } from './app.factory.js';
import { loadConfig } from './config.js';
import { AuthService } from './auth/auth.service.js';
import { installClientErrorHandler } from './common/client-error.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const migrations = await migrate(config.databaseUrl);
  const { app } = await createApp(config);
  await app.get(CatalogRepository).seed();
  await app.get(AuthService).ensureAdmin();
  const boss = app.get(PgBoss);
  boss.on('error', (error) => console.error(`pg-boss: ${error.message}`));
  await boss.start();
  await createQueues(boss);
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

main().catch((error: unknown) => {
  console.error(`Basalt API failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
