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
      endpoints: [{ role: 'primary', type: 'private', host: '10.77.0.2', port: 6379, tls: false, node: 'node-0' }],
      nodes: [
        { name: 'node-0', role: 'primary', status: 'running', lag_bytes: null, allocated_ip: '10.77.0.2', private_ip: '10.77.0.2', public_ip: '10.77.0.2', ssh_user: 'root', data_dir: '/var/lib/basalt' },
      ],
    });
  });
}
