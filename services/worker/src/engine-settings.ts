// From the instance row and its type to the engine role's variables: size, users with
// hashed passwords, allowlist. The clear password leaves this process only for the
// health check, in a vars file that the Ansible run removes when it ends.
import { createHash } from 'node:crypto';
import { decryptSecret, type InstanceUserRow, type AllowlistEntryRow } from '@basalt/db';
import type { InstanceTypeRow } from '@basalt/db';
import { StepError } from './errors.js';

export const ENGINE_PORT = 6379;
/** The engine's TLS port; with TLS on, the plaintext port is off. */
export const ENGINE_TLS_PORT = 6380;

export interface VmSize {
  cpus: number;
  memory_mb: number;
}

export function vmSizeOf(type: InstanceTypeRow): VmSize {
  return { cpus: type.vcpu, memory_mb: Math.round(type.memoryGib * 1024) };
}

export interface HealthCredentials {
  user: string;
  password: string;
}

/** The user the worker checks the endpoint as: the first user that may write. */
export function healthCredentials(masterKey: Buffer, users: InstanceUserRow[]): HealthCredentials | undefined {
  const user = users.find((u) => u.permission !== 'read_only') ?? users[0];
  return user && { user: user.username, password: decryptSecret(masterKey, user.passwordEncrypted) };
}

const FSYNC = ['always', 'everysec', 'no'];

export function engineVars(options: {
  type: InstanceTypeRow;
  /** The instance's parameters (fsync, maxclients, ...), as the API validated them. */
  parameters?: Record<string, unknown>;
  users: InstanceUserRow[];
  allowlist: AllowlistEntryRow[];
  masterKey: Buffer;
  features: ReadonlySet<string>;
  engineBinary: string;
  /** The instance's tls_enabled; needs an engine that knows --tls-port. */
  tls?: boolean;
  /** Names the instance's CA and server certificate. */
  instanceId?: string;
}): Record<string, unknown> {
  if (options.tls && !options.features.has('tls')) {
    throw new StepError('ansible', 'the instance has tls_enabled but the engine binary being deployed has no TLS (--tls-port)');
  }
  const size = vmSizeOf(options.type);
  const usersSupported = options.features.has('users');
  const health = usersSupported ? healthCredentials(options.masterKey, options.users) : undefined;
  const parameters = options.parameters ?? {};
  const fsync = typeof parameters.fsync === 'string' && FSYNC.includes(parameters.fsync) ? parameters.fsync : 'everysec';
  return {
    engine_binary_src: options.engineBinary,
    engine_fsync: fsync,
    engine_port: ENGINE_PORT,
    // Leave a quarter of the VM's memory to the OS, the page cache and connections.
    engine_maxmemory_mb: Math.floor(size.memory_mb * 0.75),
    engine_threads: Math.max(1, Math.floor(size.cpus)),
    engine_users_supported: usersSupported,
    engine_users: options.users.map((u) => ({
      name: u.username,
      password_sha256: createHash('sha256').update(decryptSecret(options.masterKey, u.passwordEncrypted)).digest('hex'),
      permission: u.permission,
    })),
    engine_allowlist_supported: options.features.has('allowlist'),
    engine_allowlist: options.allowlist.map((entry) => entry.cidr),
    engine_tls_enabled: options.tls === true,
    engine_tls_port: ENGINE_TLS_PORT,
    engine_tls_name: options.instanceId ?? 'basalt',
    engine_health_user: health?.user ?? 'default',
    engine_health_password: health?.password ?? '',
  };
}
