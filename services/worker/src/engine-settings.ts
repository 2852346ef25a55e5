// From the instance row and its type to the engine role's variables: size, parameters, the
// users file (rendered here, hashes only), allowlist. The only clear passwords that leave
// this process are the control plane's own, for its health check and live changes, in a
// vars file that the Ansible run removes when it ends; every value is passed as data that
// Ansible never evaluates (ansible/vars-file.ts).
import type { AllowlistEntryRow, ControlPasswords, InstanceTypeRow } from '@basalt/db';
import { StepError } from './errors.js';
import { CONTROL_USER, REPLICATION_USER, renderUsersFile, type EngineUser } from './engine-users.js';
import type { ReplicationMode } from '@basalt/api-client/rules';

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

/** The engine's cache bound on a VM of `size`, MB: a quarter of its memory is left to the OS, the page cache and connections. */
export const engineMaxmemoryMb = (size: VmSize): number => Math.floor(size.memory_mb * 0.75);

const FSYNC = ['always', 'everysec', 'no'];

/** A whole number in [min, max] from the instance's parameters, or undefined (engine default). */
function intParameter(parameters: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
  const value = parameters[name];
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : undefined;
}

/** The customer's networks plus the instance's own nodes; empty (everyone) stays empty. */
function allowlistWithPeers(allowlist: AllowlistEntryRow[], peers: string[]): string[] {
  const cidrs = allowlist.map((entry) => entry.cidr);
  if (cidrs.length === 0) return cidrs;
  return [...new Set([...cidrs, ...peers.map((ip) => `${ip}/32`)])];
}

export function engineVars(options: {
  type: InstanceTypeRow;
  /** The instance's parameters (fsync, maxclients, timeout), as the API validated them. */
  parameters?: Record<string, unknown>;
  /** The customer's users with clear passwords (engineUsersOf); only hashes leave this process. */
  users: EngineUser[];
  allowlist: AllowlistEntryRow[];
  /** The control plane's own user's passwords (ControlCredentialsRepository.prepare). */
  control: ControlPasswords;
  features: ReadonlySet<string>;
  engineBinary: string;
  /** The instance's tls_enabled; needs an engine that knows --tls-port. */
  tls?: boolean;
  /** Names the instance's CA and server certificate. */
  instanceId?: string;
  /**
   * A `standard` instance's replication (its replicas get `engine_replicaof` per host); `peers`
   * are every node's own address, which a customer's allowlist must not shut out: replicas
   * stream from the primary, and after a failover from another node.
   */
  replication?: { mode: ReplicationMode; password: string; peers: string[] };
}): Record<string, unknown> {
  if (options.tls && !options.features.has('tls')) {
    throw new StepError('ansible', 'the instance has tls_enabled but the engine binary being deployed has no TLS (--tls-port)');
  }
  if (!options.features.has('users')) {
    // Its `default` user would serve anyone without a password.
    throw new StepError('ansible', 'the engine binary being deployed has no users (--users-file); an instance is never deployed open to anyone');
  }
  const size = vmSizeOf(options.type);
  const parameters = options.parameters ?? {};
  const fsync = typeof parameters.fsync === 'string' && FSYNC.includes(parameters.fsync) ? parameters.fsync : 'everysec';
  const maxclients = intParameter(parameters, 'maxclients', 1, 100_000);
  const timeout = intParameter(parameters, 'timeout', 0, 86_400);
  // The engine learns the next control password from the users file this run installs: the
  // modules try it first and fall back to the current one until then.
  const controlPasswords = [...new Set([options.control.next, options.control.current].filter((p): p is string => !!p))];
  return {
    engine_binary_src: options.engineBinary,
    engine_fsync: fsync,
    engine_port: ENGINE_PORT,
    engine_maxmemory_mb: engineMaxmemoryMb(size),
    engine_threads: Math.max(1, Math.floor(size.cpus)),
    // Unset: as many clients as the instance type allows; idle clients are never closed.
    engine_maxclients: maxclients ?? options.type.maxConnections,
    engine_timeout: timeout ?? 0,
    engine_users_supported: true,
    engine_users_file_content: renderUsersFile(options.users, controlPasswords, options.replication?.password),
    engine_allowlist_supported: options.features.has('allowlist'),
    engine_allowlist: allowlistWithPeers(options.allowlist, options.replication?.peers ?? []),
    // The control plane reaches the engine from its own address, which the customer's allowlist
    // may leave out: only its own user may log in from there (a failover needs REPLICAOF, INFO).
    engine_allowlist_exempt_user: options.features.has('allowlist-exempt-user') ? CONTROL_USER : '',
    engine_tls_enabled: options.tls === true,
    engine_tls_port: ENGINE_TLS_PORT,
    engine_tls_name: options.instanceId ?? 'basalt',
    engine_control_user: CONTROL_USER,
    engine_control_passwords: controlPasswords,
    engine_replication_mode: options.replication?.mode ?? '',
    engine_replication_user: REPLICATION_USER,
    engine_replication_password: options.replication?.password ?? '',
  };
}
