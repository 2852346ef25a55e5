// The `canonical-durability` suite: the "strong durability guarantees" table of RethinkDB's
// performance report, where a write is acknowledged only once it is on disk. memcached keeps
// nothing on disk, so the peer is Redis (AOF), and the load goes over the Redis protocol, the
// one both speak: the canonical mix as memtier commands (basalt-bench's --command with
// --command-ratio), 1 DEL per 12 SET per 64 GET of random keys, values 8-128 B (over RESP an
// insert and an update are both a SET: a SET of a key a DEL removed inserts it again; the
// memcached protocol's multi-key get has no fixed-arity RESP form, so reads are one key each).
// It runs at `appendfsync always` (every write on disk before its reply) and, for the cost of it,
// at `everysec`, set on both servers with CONFIG SET for the scenario (Scenario.fsync); the job
// puts the instance's own policy back when the run ends.
import type { InstanceTypeRow } from '@basalt/db';
import { canonicalConnections } from './suite-canonical.js';
import { STANDARD_SCENARIO_SECONDS, type Scenario } from './suites.js';

const KEYS_PER_VCPU = 20_000;
const TIMEOUT_MS = 120_000;
export const DURABILITY_POLICIES = ['always', 'everysec'] as const;

/** The canonical mix as memtier commands, each --command-ratio pairing with the --command before it. */
export const RESP_CANONICAL_MIX = ['--command=DEL __key__', '--command-ratio=1', '--command=SET __key__ __data__', '--command-ratio=12', '--command=GET __key__', '--command-ratio=64'];

export function canonicalDurability(type: InstanceTypeRow, seconds = STANDARD_SCENARIO_SECONDS): Scenario[] {
  const connections = canonicalConnections(type);
  const keys = KEYS_PER_VCPU * Math.max(1, type.vcpu);
  const scaling =
    `${connections} connections (the report's 512, 64 per vCPU of the type's ${type.vcpu}), 1 client thread, ping-pong, ${keys} keys of 8-128 B written first (one SET each, the instance's fsync policy), ` +
    `then a run of ${seconds} s per fsync policy on both servers (Basalt and Redis set alike with CONFIG SET appendfsync, the instance's policy put back afterwards)`;
  const keyFlags = ['--threads=1', `--clients=${connections}`, '--key-prefix=canonical-', '--key-minimum=1', `--key-maximum=${keys}`, '--data-size-range=8-128', '--random-data', '--pipeline=1'];
  const base = { mode: 'memtier' as const, valueSize: undefined, connections, pipeline: 1, timeoutMs: TIMEOUT_MS, scaling };
  return [
    { ...base, name: `load: ${keys} keys of 8-128 B`, workload: 'load', flags: [...keyFlags, '--ratio=1:0', '--key-pattern=P:P', '--requests=allkeys'] },
    ...DURABILITY_POLICIES.map(
      (fsync): Scenario => ({
        ...base,
        name: `canonical mix over RESP (1 DEL / 12 SET / 64 GET), appendfsync ${fsync}`,
        workload: `durability-${fsync}`,
        fsync,
        flags: [...keyFlags, '--distinct-client-seed', ...RESP_CANONICAL_MIX, `--test-time=${seconds}`],
      }),
    ),
  ];
}
