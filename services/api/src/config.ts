// Everything the API reads from its environment, parsed once at start.
import { LOCAL_NETWORK, parseMasterKey, secretFromEnv } from '@basalt/db';
import type { ObjectStoreConfig } from '@basalt/db/object-store';
import { backupStoreConfigOf } from '@basalt/db/object-store-config';
import type { ProjectQuota } from './instances/quota.js';

export class ApiConfig {
  databaseUrl: string;
  port: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  masterKey: Buffer;
  /** Requests per second allowed per caller (token bucket; burst is twice this). */
  rateLimitPerSecond: number;
  /** Failed or successful login attempts per minute per client address and e-mail (three times this per address and per account). */
  loginAttemptsPerMinute: number;
  /** Login attempts per minute on this process, all callers together. */
  loginGlobalAttemptsPerMinute: number;
  /** Login password hashes (32 MiB scrypt each) computed at once. */
  loginHashConcurrency: number;
  /** Seconds an old instance-user password stays valid after a reset. */
  passwordRotationSeconds: number;
  sessionTtlSeconds: number;
  /** How long credential and membership lookups are cached in this process (ms). */
  authCacheMs: number;
  /** Origins besides the API's own whose pages may make cookie-authenticated changes (BASALT_ALLOWED_ORIGINS, comma-separated). */
  allowedOrigins: string[];
  /** Session cookies always `Secure` (BASALT_SECURE_COOKIES=1); otherwise whenever the request came over HTTPS. */
  secureCookies: boolean;
  /** Every project's quota: live instances, and the vCPU and memory their types take. */
  quota: ProjectQuota;
  /** The control plane's Prometheus (BASALT_PROMETHEUS_URL), which the metrics endpoint queries; none: 503. */
  prometheusUrl: string | undefined;
  /**
   * The object store (BASALT_BACKUP_S3_*, as the worker reads it): RDB uploads are written to it
   * and RDB exports streamed from it. None: those routes answer 404 not_configured.
   */
  objectStore: ObjectStoreConfig | undefined;
  /** The largest RDB file an upload may be (BASALT_RDB_IMPORT_MAX_BYTES, default 1 GiB); 413 beyond. */
  rdbImportMaxBytes: number;
  /** The project bridge: the API reads an engine's SLOWLOG only at an address routed through it (or loopback). */
  bridge: string;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  // The secrets may come as NAME_FILE (a file's path), as the platform passes them.
  const databaseUrl = secretFromEnv(env, 'DATABASE_URL');
  if (!databaseUrl) throw new Error('DATABASE_URL (or DATABASE_URL_FILE) is not set');
  const config = new ApiConfig();
  config.databaseUrl = databaseUrl;
  config.port = intFromEnv(env, 'BASALT_API_PORT', 8080);
  config.adminEmail = env.BASALT_ADMIN_EMAIL || undefined;
  config.adminPassword = secretFromEnv(env, 'BASALT_ADMIN_PASSWORD');
  config.masterKey = parseMasterKey(secretFromEnv(env, 'BASALT_MASTER_KEY'));
  config.rateLimitPerSecond = intFromEnv(env, 'BASALT_RATE_LIMIT_RPS', 500);
  config.loginAttemptsPerMinute = intFromEnv(env, 'BASALT_LOGIN_ATTEMPTS_PER_MINUTE', 30);
  config.loginGlobalAttemptsPerMinute = intFromEnv(env, 'BASALT_LOGIN_GLOBAL_ATTEMPTS_PER_MINUTE', 600);
  config.loginHashConcurrency = intFromEnv(env, 'BASALT_LOGIN_HASH_CONCURRENCY', 2);
  config.passwordRotationSeconds = intFromEnv(env, 'BASALT_PASSWORD_ROTATION_SECONDS', 86_400);
  config.sessionTtlSeconds = intFromEnv(env, 'BASALT_SESSION_TTL_SECONDS', 7 * 86_400);
  config.authCacheMs = intFromEnv(env, 'BASALT_AUTH_CACHE_MS', 2000);
  config.secureCookies = env.BASALT_SECURE_COOKIES === '1';
  config.allowedOrigins = (env.BASALT_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  config.quota = {
    instances: intFromEnv(env, 'BASALT_QUOTA_INSTANCES', 20),
    vcpu: intFromEnv(env, 'BASALT_QUOTA_VCPU', 64),
    memory_gib: intFromEnv(env, 'BASALT_QUOTA_MEMORY_GIB', 256),
  };
  config.prometheusUrl = env.BASALT_PROMETHEUS_URL?.replace(/\/+$/, '') || undefined;
  config.bridge = env.BASALT_BRIDGE ?? LOCAL_NETWORK.bridge;
  config.objectStore = backupStoreConfigOf(env);
  config.rdbImportMaxBytes = intFromEnv(env, 'BASALT_RDB_IMPORT_MAX_BYTES', 1024 ** 3);
  return config;
}
