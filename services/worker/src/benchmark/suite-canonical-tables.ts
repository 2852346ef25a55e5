// The `canonical-tables` suite: the tables of RethinkDB's performance report
// (../shared/reference/rethinkdb-performance-report.txt) beside the `canonical` suite's one,
// over the memcached text protocol with `basalt-bench canonical`, each against memcached in the
// same run: pure select, pure insert, low memory (data larger than the cache), concurrent
// connections and large values (4-64 KB). Strong durability needs a peer that persists
// (memcached does not): it is `canonical-durability`, against Redis. The report's rotational
// drive table is left out (this host has no rotational drive), as is multicore scaling: the
// engine's `threads` is fixed at start (CONFIG SET refuses it), so 1 and 2 threads would be two
// engines started for the run, which no suite does yet.
//
// Every group of scenarios works on key numbers of its own (`--first-connection`: connection c
// of a run uses the keys of connection N + c), so one server holds every group's keys at once
// and no run's inserts (`add`) meet keys an earlier run left: an `add` of a key that exists is
// refused, which would measure a refusal instead of an insert. Each group that reads first
// writes its key set with as many connections as it reads with (basalt-bench gives each
// connection a window of the keys).
import type { InstanceTypeRow } from '@basalt/db';
import { engineMaxmemoryMb, vmSizeOf } from '../engine-settings.js';
import { canonicalConnections } from './suite-canonical.js';
import type { Scenario } from './suites.js';

/** Keys of the small-value groups: 20 000 per vCPU, as `canonical`. */
const KEYS_PER_VCPU = 20_000;
/** Requests of each run over all connections (a few seconds here, as `canonical`'s). */
const RUN_REQUESTS = 100_000;
/** Large values move 300× the bytes of small ones per request: fewer requests keep the run to seconds. */
const LARGE_RUN_REQUESTS = 10_000;
export const LARGE_VALUES = '4096-65536';
/** Data of the large-value key set at most (keys × average value). */
const LARGE_DATA_BUDGET_BYTES = 64 * 1024 * 1024;
/** The report's connection counts, 16 to 1,024 in steps of 4×. */
export const CONNECTION_LEVELS = [16, 64, 256, 1024] as const;
/** basalt-bench canonical's key space: connections of all groups together (its MAX_CLIENTS). */
export const CANONICAL_KEY_SPACE_CONNECTIONS = 4096;
/** The low-memory row's cache bound: a quarter of the data (as ycsb-standard's 1:4). */
export const LOW_MEMORY_TO_DATA = 0.25;
const TIMEOUT_MS = 180_000;

/** The concurrent-connections levels this type runs: the report's, up to the type's connection limit. */
export function connectionLevels(type: Pick<InstanceTypeRow, 'maxConnections'>): number[] {
  return CONNECTION_LEVELS.filter((level) => level <= type.maxConnections);
}

/** Keys of the large-value set: their data (at the average value) within the budget and an eighth of the cache bound, at least one per connection. */
export function largeValueKeys(type: InstanceTypeRow, connections: number): number {
  const [min, max] = LARGE_VALUES.split('-').map(Number) as [number, number];
  const cacheBytes = engineMaxmemoryMb(vmSizeOf(type)) * 1024 * 1024;
  return Math.max(connections, Math.floor(Math.min(LARGE_DATA_BUDGET_BYTES, cacheBytes / 8) / ((min + max) / 2)));
}

export function canonicalTables(type: InstanceTypeRow): Scenario[] {
  const connections = canonicalConnections(type);
  const keys = KEYS_PER_VCPU * Math.max(1, type.vcpu);
  const levels = connectionLevels(type);
  const largeKeys = largeValueKeys(type, connections);
  const scaling =
    `${connections} connections (the report's 512, 64 per vCPU of the type's ${type.vcpu}), 1 client thread, ${keys} keys of 8-128 B (20 000 per vCPU), ${RUN_REQUESTS} requests per run; ` +
    `concurrent connections at ${levels.join(', ')} (the report's 16 to 1,024 in steps of 4×, at most the type's ${type.maxConnections}), each level on a key set of its own written first with as many connections; ` +
    `low memory: the engine's cache bound set to ${LOW_MEMORY_TO_DATA} of the data after the load (INFO used_memory) for that run only; ` +
    `large values: ${largeKeys} keys of 4-64 KB (their data within 64 MiB and an eighth of the cache bound), ${LARGE_RUN_REQUESTS} requests; one run per scenario; the report ran minutes per table with 32 GB of cache on two 6-core CPUs`;
  const base = { mode: 'canonical' as const, valueSize: undefined, pipeline: 1, timeoutMs: TIMEOUT_MS, scaling };
  const perConnection = (requests: number, clients: number) => Math.max(1, Math.ceil(requests / clients));
  const canonicalMix = ['--ratio=1:4:8:64', '--batch=1-16', '--key-size=8-16'];
  let nextConnection = 0;
  /** The first connection of a group of `clients` connections: each group its own key numbers. */
  const group = (clients: number) => {
    const first = nextConnection;
    nextConnection += clients;
    return `--first-connection=${first}`;
  };
  const common = (clients: number) => ['--threads=1', `--clients=${clients}`];

  const small = group(connections);
  const smallFlags = [...common(connections), `--keys=${keys}`, small];
  const scenarios: Scenario[] = [
    { ...base, connections, name: `load: ${keys} keys of 8-128 B over ${connections} conns`, workload: 'canonical-load', flags: [...smallFlags, '--value-size=8-128', '--load'] },
    {
      ...base,
      connections,
      name: `pure select: gets of 1-16 keys, ${connections} conns`,
      workload: 'pure-select',
      flags: [...smallFlags, '--ratio=0:0:0:1', '--batch=1-16', '--key-size=8-16', '--value-size=8-128', `--requests=${perConnection(RUN_REQUESTS, connections)}`],
    },
    {
      ...base,
      connections,
      name: `low memory: canonical mix with the cache at ${LOW_MEMORY_TO_DATA} of the data, ${connections} conns`,
      workload: 'low-memory',
      memoryToData: LOW_MEMORY_TO_DATA,
      flags: [...smallFlags, ...canonicalMix, '--value-size=8-128', `--requests=${perConnection(RUN_REQUESTS, connections)}`],
      peerSkip: 'memcached is a cache: with less memory than data it drops values (its reads then miss) instead of reading them from disk, so it has no figure for data larger than memory (the report has none for Membase either)',
    },
  ];
  const insert = group(connections);
  scenarios.push({
    ...base,
    connections,
    name: `pure insert: adds of new keys of 8-128 B, ${connections} conns`,
    workload: 'pure-insert',
    flags: [...common(connections), '--keys=0', insert, '--ratio=0:0:1:0', '--key-size=8-16', '--value-size=8-128', `--requests=${perConnection(RUN_REQUESTS, connections)}`],
  });
  for (const level of levels) {
    const flags = [...common(level), `--keys=${keys}`, group(level)];
    scenarios.push(
      { ...base, connections: level, name: `concurrent connections: load ${keys} keys over ${level} conns`, workload: 'canonical-load', flags: [...flags, '--value-size=8-128', '--load'] },
      {
        ...base,
        connections: level,
        name: `concurrent connections: canonical mix, ${level} conns`,
        workload: 'canonical',
        flags: [...flags, ...canonicalMix, '--value-size=8-128', `--requests=${perConnection(RUN_REQUESTS, level)}`],
      },
    );
  }
  const large = [...common(connections), `--keys=${largeKeys}`, group(connections), `--value-size=${LARGE_VALUES}`];
  scenarios.push(
    { ...base, connections, name: `large values: load ${largeKeys} keys of 4-64 KB over ${connections} conns`, workload: 'canonical-load', flags: [...large, '--load'] },
    { ...base, connections, name: `large values: canonical mix with 4-64 KB values, ${connections} conns`, workload: 'large-values', flags: [...large, ...canonicalMix, `--requests=${perConnection(LARGE_RUN_REQUESTS, connections)}`] },
  );
  return scenarios;
}
