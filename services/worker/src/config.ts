// The worker's settings, from the environment the platform gives every process
// (docs/DEVELOPING.md). Paths default to the repository's own .data and infra folders.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCAL_NETWORK, parseMasterKey, secretFromEnv } from '@basalt/db';
import { cidrWithin } from './ipam.js';
import { monitoringConfigOf, type MonitoringConfig } from './monitoring/monitoring-config.js';
import { STANDARD_SCENARIO_SECONDS, STANDARD_SCENARIO_SECONDS_MAX } from './benchmark/suites.js';
import type { ObjectStoreConfig } from './backup/object-store.js';
import { backupStoreConfigOf } from '@basalt/db/object-store-config';
import { parseFault, type FaultSetting } from './fault-hook.js';

export interface WorkerConfig {
  databaseUrl: string;
  masterKey: Buffer;
  root: string;
  engineBinary: string;
  /** basalt-rdb, which reads RDB files into a data dir and writes them out of one (issue 44). */
  rdbBinary: string;
  /** basalt-bench, the load generator of the benchmark job. */
  benchBinary: string;
  stackDir: string;
  ansibleDir: string;
  /** Per-instance Terraform data dirs (TF_DATA_DIR). */
  terraformDir: string;
  /** Per-job Ansible run directories. */
  runsDir: string;
  /** Region SSH keys and the project's known_hosts. */
  sshDir: string;
  vmsDir: string;
  imageDir: string;
  bridge: string;
  /**
   * The part of region `local`'s pool this control plane hands out (a CIDR inside it), or
   * none: all of it. Control planes that share one host (test stacks running at once) take
   * one range each, so no two of them can give out one address.
   */
  addressRange?: string;
  /** `nspawn` VMs, or `process` VMs where containers cannot run (limits not enforced). */
  vmKind: 'nspawn' | 'process';
  /** Schema of the Terraform pg backend's state table. */
  stateSchema: string;
  /** Jobs one worker runs at once, of all kinds together. */
  concurrency: number;
  /** How often an idle queue is asked for jobs. */
  pollingIntervalMs: number;
  /** How often a live worker looks for operations that a dead worker left behind. */
  reconcileIntervalMs: number;
  /** How often the health monitor asks every running instance's endpoints. */
  healthIntervalMs: number;
  /** How often the failover monitor PINGs the primaries of standard instances (issue 15). */
  failoverIntervalMs: number;
  /** How often the backup scheduler looks at windows and retention (backup/backup-scheduler.ts). */
  backupScheduleIntervalMs: number;
  /** How fast a backup reads an engine's log (MB/s): the clients' share of its CPU stays theirs. */
  backupReadMbps: number;
  /** How long each memtier-standard scenario runs in each round (BASALT_BENCHMARK_SCENARIO_SECONDS). */
  standardScenarioSeconds: number;
  /** The control plane's Prometheus (scrape targets, the health monitor's scrape check); none: off. */
  monitoring?: MonitoringConfig;
  /** The S3-compatible store backups go to (BASALT_BACKUP_S3_*); none: backups are off. */
  backupStore?: ObjectStoreConfig;
  /** Tests only: where the worker kills itself (BASALT_FAULT with BASALT_TEST_FAULTS=1, fault-hook.ts). */
  fault?: FaultSetting;
}

export class ConfigError extends Error {}

function faultOf(env: NodeJS.ProcessEnv): FaultSetting | undefined {
  try {
    return parseFault(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  // The secrets may come as NAME_FILE (a file's path), as the platform passes them.
  const databaseUrl = secretFromEnv(env, 'DATABASE_URL');
  if (!databaseUrl) throw new ConfigError('DATABASE_URL (or DATABASE_URL_FILE) is not set');
  const root = path.resolve(env.BASALT_ROOT ?? defaultRoot);
  const data = path.resolve(env.BASALT_DATA_DIR ?? path.join(root, '.data'));
  return {
    databaseUrl,
    masterKey: parseMasterKey(secretFromEnv(env, 'BASALT_MASTER_KEY')),
    root,
    engineBinary: path.resolve(env.BASALT_ENGINE_BIN ?? path.join(root, 'engine', 'target', 'release', 'basalt-server')),
    rdbBinary: path.resolve(env.BASALT_RDB_BIN ?? path.join(root, 'engine', 'target', 'release', 'basalt-rdb')),
    benchBinary: path.resolve(env.BASALT_BENCH_BIN ?? path.join(root, 'engine', 'target', 'release', 'basalt-bench')),
    stackDir: path.join(root, 'infra', 'terraform', 'stack'),
    ansibleDir: path.join(root, 'infra', 'ansible'),
    terraformDir: path.join(data, 'terraform'),
    runsDir: path.join(data, 'runs'),
    sshDir: path.join(data, 'ssh'),
    vmsDir: path.join(data, 'vms'),
    // The image is built once per machine by the bootstrap, whatever data dir this worker uses.
    imageDir: path.resolve(env.BASALT_VM_IMAGE ?? path.join(root, '.data', 'images', 'bookworm')),
    bridge: env.BASALT_BRIDGE ?? LOCAL_NETWORK.bridge,
    addressRange: addressRangeOf(env.BASALT_ADDRESS_RANGE),
    vmKind: vmKindOf(env.BASALT_LOCAL_VM_KIND, path.resolve(env.BASALT_VM_IMAGE ?? path.join(root, '.data', 'images', 'bookworm'))),
    stateSchema: env.BASALT_TF_STATE_SCHEMA ?? 'terraform_state',
    concurrency: positiveInt(env.BASALT_WORKER_CONCURRENCY, 10, 'BASALT_WORKER_CONCURRENCY'),
    pollingIntervalMs: positiveInt(env.BASALT_WORKER_POLL_MS, 500, 'BASALT_WORKER_POLL_MS'),
    reconcileIntervalMs: positiveInt(env.BASALT_RECONCILE_INTERVAL_MS, 30_000, 'BASALT_RECONCILE_INTERVAL_MS'),
    healthIntervalMs: positiveInt(env.BASALT_HEALTH_INTERVAL_MS, 5_000, 'BASALT_HEALTH_INTERVAL_MS'),
    failoverIntervalMs: positiveInt(env.BASALT_FAILOVER_INTERVAL_MS, 1_000, 'BASALT_FAILOVER_INTERVAL_MS'),
    backupScheduleIntervalMs: positiveInt(env.BASALT_BACKUP_SCHEDULE_INTERVAL_MS, 60_000, 'BASALT_BACKUP_SCHEDULE_INTERVAL_MS'),
    backupReadMbps: positiveInt(env.BASALT_BACKUP_READ_MBPS, 32, 'BASALT_BACKUP_READ_MBPS', 10_000),
    standardScenarioSeconds: positiveInt(env.BASALT_BENCHMARK_SCENARIO_SECONDS, STANDARD_SCENARIO_SECONDS, 'BASALT_BENCHMARK_SCENARIO_SECONDS', STANDARD_SCENARIO_SECONDS_MAX),
    monitoring: monitoringConfigOf(env),
    backupStore: backupStoreConfigOf(env, (message) => new ConfigError(message)),
    fault: faultOf(env),
  };
}

/**
 * systemd-nspawn VMs need root, Linux, the tool and the image; anywhere else the `local`
 * region falls back to process VMs. BASALT_LOCAL_VM_KIND chooses explicitly.
 */
function vmKindOf(chosen: string | undefined, imageDir: string): 'nspawn' | 'process' {
  if (chosen === 'nspawn' || chosen === 'process') return chosen;
  if (chosen) throw new ConfigError(`BASALT_LOCAL_VM_KIND must be nspawn or process, not ${chosen}`);
  const canRun =
    process.platform === 'linux' &&
    process.getuid?.() === 0 &&
    ['/usr/bin/systemd-nspawn', '/bin/systemd-nspawn'].some((file) => fs.existsSync(file)) &&
    fs.existsSync(path.join(imageDir, 'etc'));
  return canRun ? 'nspawn' : 'process';
}

/** BASALT_ADDRESS_RANGE: a CIDR inside region `local`'s pool, checked at start. */
function addressRangeOf(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  if (!cidrWithin(LOCAL_NETWORK.address_pool, text)) {
    throw new ConfigError(`BASALT_ADDRESS_RANGE must be a CIDR inside region local's pool ${LOCAL_NETWORK.address_pool}, not ${text}`);
  }
  return text;
}

function positiveInt(text: string | undefined, fallback: number, name: string, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ConfigError(`${name} must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}, not ${text}`);
  }
  return value;
}
