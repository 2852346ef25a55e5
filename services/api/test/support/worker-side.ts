// Plays the worker's part through its own repository in @basalt/db: what a finished provision
// leaves behind (status running, endpoints, nodes), so routes that need a running instance can
// be exercised without Terraform.
import { createDatabase, ProvisioningRepository } from '@basalt/db';
import type { RunningApi } from './api-process.js';

export async function withWorkerRepo<T>(api: RunningApi, work: (repo: ProvisioningRepository) => Promise<T>): Promise<T> {
  const database = createDatabase(api.databaseUrl, { max: 2 });
  try {
    return await work(new ProvisioningRepository(database.db, database.pool));
  } finally {
    await database.close();
  }
}

export function markRunning(api: RunningApi, instanceId: string, operationId: string): Promise<void> {
  return withWorkerRepo(api, async (repo) => {
    await repo.updateOperation(operationId, { status: 'succeeded', progress: 100, finishedAt: new Date() });
    await repo.updateInstance(instanceId, {
      status: 'running',
      health: 'healthy',
      endpoints: [{ type: 'private', host: '10.77.0.2', port: 6379, tls: false }],
      nodes: [{ name: 'node-0', private_ip: '10.77.0.2' }],
    });
  });
}
