// What the attack tests share: a platform (API + worker as `npm start` runs them) whose local
// region runs process VMs on loopback, so an instance is up in seconds and nothing is sent to the
// bridge; and a real client (ioredis) that tells what the engine answered, errors included.
import { Redis } from 'ioredis';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';

type Instance = Schemas['InstanceDto'];

/** Starts the platform with `env` on top of the test's own (the platform passes the environment on). */
export async function startSecurityPlatform(prefix: string, env: Record<string, string> = {}): Promise<ProvisioningPlatform> {
  Object.assign(process.env, { BASALT_LOCAL_VM_KIND: 'process', ...env });
  return startProvisioningPlatform(prefix);
}

/** Creates an instance through the API and waits until it runs; returns it with the default user's password. */
export async function createRunningInstance(platform: ProvisioningPlatform, body: Record<string, unknown>): Promise<{ instance: Instance; password: string }> {
  const { data, response, error } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { instance_type: 'kv.standard.small', region: 'local', ...body } as never,
  });
  if (response.status !== 202) throw new Error(`create: ${response.status} ${JSON.stringify(error)}`);
  const instance = await platform.waitForStatus(data!.instance.id, ['running'], 240_000);
  return { instance, password: data!.default_user.password };
}

export function endpointOf(instance: Instance): { host: string; port: number } {
  const endpoint = instance.endpoints[0];
  if (!endpoint) throw new Error(`instance ${instance.id} has no endpoint`);
  return { host: endpoint.host, port: endpoint.port };
}

/**
 * Runs one command on a fresh connection, after AUTH when `user` is given; resolves with the
 * reply, or with the error the engine sent (`WRONGPASS ...`, `NOAUTH ...`) as text.
 */
export async function commandAs(endpoint: { host: string; port: number }, user: { username: string; password: string } | undefined, ...command: [string, ...(string | Buffer)[]]): Promise<unknown> {
  const client = new Redis({
    host: endpoint.host,
    port: endpoint.port,
    ...(user ? { username: user.username, password: user.password } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // Its INFO ready check would meet NOAUTH first on an engine that requires a password.
    enableReadyCheck: false,
  });
  // A refused AUTH arrives as an 'error' event and closes the connection; the command then
  // fails with "Stream isn't writeable": the engine's own reply is the one worth reporting.
  let refused: Error | undefined;
  client.on('error', (error: Error) => {
    refused ??= error;
  });
  try {
    await client.connect();
    return await client.call(command[0], ...command.slice(1));
  } catch (error) {
    return `error: ${(refused ?? (error as Error)).message}`;
  } finally {
    client.disconnect();
  }
}

/** Runs a project-scoped API call for the instance; throws with the body unless it answered `status`. */
export function instancePath(platform: ProvisioningPlatform, instance: { id: string }) {
  return { project: platform.projectId, instance: instance.id };
}
