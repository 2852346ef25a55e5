// What each benchmark suite runs on an instance: a list of scenarios, each one basalt-bench
// command's load-shaping flags (memtier_benchmark's names, so a report's commands rerun
// unchanged with memtier). Where the client connects and where it writes are added by the
// job (scenario-command.ts).
import { parseCustomFlags, type BenchmarkSuite, type EncryptionVariant } from '@basalt/api-client/rules';
import type { InstanceTypeRow } from '@basalt/db';
import { StepError } from '../errors.js';
import { canonicalSuite } from './suite-canonical.js';
import { canonicalDurability } from './suite-canonical-durability.js';
import { canonicalTables } from './suite-canonical-tables.js';
import { memtierMatrix } from './suite-memtier-matrix.js';
import { encryptionOverheadSuite } from './suite-encryption.js';
import { ycsbStandard } from './suite-ycsb.js';

/**
 * Which basalt-bench mode runs a scenario: memtier_benchmark's flags, `ycsb load|run` (the
 * Redis port), or `canonical` (the memcached port).
 */
export type ScenarioMode = 'memtier' | 'ycsb-load' | 'ycsb-run' | 'canonical';

export interface Scenario {
  name: string;
  mode: ScenarioMode;
  /** write-only, read-only, mixed-1:1, custom, ycsb-load, uniform-read, ..., canonical. */
  workload: string;
  /** Bytes; undefined when sizes vary (a custom --data-size-range or --data-size-list). */
  valueSize: number | undefined;
  connections: number;
  pipeline: number;
  /** Load-shaping flags in canonical form (`--name=value`). */
  flags: string[];
  /** Longest the client may run before the job stops it and fails. */
  timeoutMs: number;
  /**
   * Runs of the scenario, each in its own round of the suite (the whole list once per round),
   * its row the median round's (undefined: one run).
   */
  rounds?: number;
  /**
   * Before it runs, the engine's cache bound is set to this multiple of the data the suite
   * loaded (INFO used_memory after the load): 7 for memory:data 7:1, 0.25 for 1:4. The job
   * puts the instance's own bound back when the run ends.
   */
  memoryToData?: number;
  /** How the suite was scaled to the instance type and this machine (written with the results). */
  scaling?: string;
  /**
   * The fsync policy both servers run this scenario at (CONFIG SET appendfsync on the engine and
   * a Redis peer); the job puts the instance's own policy back when the run ends.
   */
  fsync?: 'always' | 'everysec' | 'no';
  /** Why the run's peer does not run this scenario (it would not measure the same thing). */
  peerSkip?: string;
  /**
   * encryption-overhead: the scenario runs against an engine the job starts for it with these
   * encryptions (encryption-engine.ts), not against the instance.
   */
  encryption?: EncryptionVariant;
}

/**
 * The peer each standard suite is measured beside in the same run (none for custom, nor for
 * encryption-overhead, which sets Basalt's engine against itself).
 */
export function peerOf(suite: BenchmarkSuite): 'redis' | 'memcached' | undefined {
  if (suite === 'canonical' || suite === 'canonical-tables') return 'memcached';
  return suite === 'custom' || suite === 'encryption-overhead' ? undefined : 'redis';
}

/**
 * memtier-standard, shortened: the papers' matrix (128 B to 16 KB, ping-pong and pipeline 32,
 * 128 and 512 connections, write-only / read-only after a load / mixed 1:1) cut to what this
 * 2-core host measures in seconds per scenario: 128 B and 4 KB; write-only over the key
 * range (ping-pong, random keys: it is the load, every key written many times over), read-only
 * over it (ping-pong), mixed 1:1 at pipeline 32, each a run of a few seconds in each of
 * STANDARD_ROUNDS rounds (the whole list once per round, Basalt then the peer), the figure the
 * median round's. Runs bounded by a request count were a fraction of a second here (20 000
 * reads at 100 000 ops/s) and moved by up to 2x from one run to the next; the aggregate of 3
 * runs of one command in a row (memtier's --run-count) moved with whatever slow stretch of the
 * shared host it fell in: the 4 KB write row of the reports read 33 000-46 000 ops/s in eight
 * reports, 45 000-55 000 when rerun, and reruns of one command minutes apart on one instance
 * moved by up to 40 %. Rounds spread over the suite put a slow stretch in one round of a
 * scenario, which the median leaves out; a rerun takes the median of as many rounds the same
 * way. The host's 2 cores are shared, so a single run may not be rerun within ±15 %. Connections scale
 * with the type: 8 per vCPU, at most 64 (the papers' 128 and 512 are for 8-52 vCPU machines
 * with their client on a machine of its own), one client thread (client and server share this
 * host's cores).
 */
const STANDARD_SIZES = [128, 4096];
/** Keys the writes and the reads draw from. */
const STANDARD_KEYS = 20_000;
/** The default of BASALT_BENCHMARK_SCENARIO_SECONDS (config.ts): what the reports here ran. */
export const STANDARD_SCENARIO_SECONDS = 4;
const STANDARD_ROUNDS = 3;
const STANDARD_TIMEOUT_MS = 120_000;
/** The longest run BASALT_BENCHMARK_SCENARIO_SECONDS may ask for: half the scenario's hard stop. */
export const STANDARD_SCENARIO_SECONDS_MAX = STANDARD_TIMEOUT_MS / 2_000;
/** A custom run gives its own bounds (flags rules); this is the job's hard stop. */
const CUSTOM_TIMEOUT_MS = 300_000;

export function standardConnections(type: Pick<InstanceTypeRow, 'vcpu'>): number {
  return Math.min(64, 8 * Math.max(1, type.vcpu));
}

function memtierStandard(type: InstanceTypeRow, seconds: number): Scenario[] {
  const connections = standardConnections(type);
  const common = ['--threads=1', `--clients=${connections}`, '--random-data', '--distinct-client-seed', '--key-prefix=memtier-', '--key-minimum=1', `--key-maximum=${STANDARD_KEYS}`, '--key-pattern=R:R', `--test-time=${seconds}`];
  return STANDARD_SIZES.flatMap((size): Scenario[] => {
    const scaling = `${connections} connections (8 per vCPU of the type's ${type.vcpu}, at most 64; the papers' 128 and 512 are for 8-52 vCPU machines), 1 client thread, ${STANDARD_KEYS} keys, a run of ${seconds} s per scenario in each of ${STANDARD_ROUNDS} rounds of the suite (the list once per round), the figure the median round's (the papers run millions of requests; requests bounded by count were under a second here and moved by up to 2x run to run, and the aggregate of 3 runs of a command in a row by up to 40 % from one rerun to the next), each server measured with no background work of either running (log compaction, AOF rewrite)`;
    const base = { mode: 'memtier' as const, valueSize: size, connections, timeoutMs: STANDARD_TIMEOUT_MS, rounds: STANDARD_ROUNDS, scaling };
    const label = size >= 1024 ? `${size / 1024} KB` : `${size} B`;
    return [
      {
        ...base,
        name: `write-only ${label}, ping-pong`,
        workload: 'write-only',
        pipeline: 1,
        flags: [...common, `--data-size=${size}`, '--ratio=1:0', '--pipeline=1'],
      },
      {
        ...base,
        name: `read-only ${label}, ping-pong`,
        workload: 'read-only',
        pipeline: 1,
        flags: [...common, `--data-size=${size}`, '--ratio=0:1', '--pipeline=1'],
      },
      {
        ...base,
        name: `mixed 1:1 ${label}, pipeline 32`,
        workload: 'mixed-1:1',
        pipeline: 32,
        flags: [...common, `--data-size=${size}`, '--ratio=1:1', '--pipeline=32'],
      },
    ];
  });
}

/** One scenario of the customer's flags, checked again here (the API checked them first). */
function custom(flags: unknown): Scenario[] {
  const parsed = parseCustomFlags(flags);
  if (!parsed.ok) throw new StepError('plan', `custom flags: ${parsed.error}`);
  const v = parsed.values;
  const threads = Number(v.threads ?? 4);
  const clients = Number(v.clients ?? 50);
  const fixedSize = v['data-size-range'] === undefined && v['data-size-list'] === undefined;
  return [
    {
      name: 'custom',
      mode: 'memtier',
      workload: 'custom',
      valueSize: fixedSize ? Number(v['data-size'] ?? 32) : undefined,
      connections: threads * clients,
      pipeline: Number(v.pipeline ?? 1),
      flags: parsed.args,
      timeoutMs: v['test-time'] !== undefined ? (Number(v['test-time']) * Number(v['run-count'] ?? 1) + 30) * 1000 : CUSTOM_TIMEOUT_MS,
    },
  ];
}

/** `standardSeconds`: each memtier-standard run's length (the worker's setting). */
export function planScenarios(suite: BenchmarkSuite, type: InstanceTypeRow, parameters: Record<string, unknown>, standardSeconds = STANDARD_SCENARIO_SECONDS): Scenario[] {
  switch (suite) {
    case 'memtier-standard':
      return memtierStandard(type, standardSeconds);
    case 'memtier-matrix':
      return memtierMatrix(type, standardSeconds);
    case 'canonical-tables':
      return canonicalTables(type);
    case 'canonical-durability':
      return canonicalDurability(type, standardSeconds);
    case 'custom':
      return custom(parameters.flags);
    case 'canonical':
      return canonicalSuite(type);
    case 'ycsb-standard':
      return ycsbStandard(type);
    case 'encryption-overhead':
      return encryptionOverheadSuite(type);
    default:
      throw new StepError('plan', `unknown benchmark suite ${JSON.stringify(suite)}`);
  }
}
