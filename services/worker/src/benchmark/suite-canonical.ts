// The `canonical` suite: RethinkDB's canonical workload (its performance report's
// methodology) over the memcached text protocol with `basalt-bench canonical`: 1 delete per 4
// updates per 8 inserts per 64 reads, reads batched 1-16 keys per get, keys 8-16 B, values
// 8-128 B. First the key set is written (one `set` per key), then the mixed run.
import type { InstanceTypeRow } from '@basalt/db';
import type { Scenario } from './suites.js';

/** The report's 512 connections, scaled: 64 per vCPU of the type, at most 512. */
export function canonicalConnections(type: Pick<InstanceTypeRow, 'vcpu'>): number {
  return Math.min(512, 64 * Math.max(1, type.vcpu));
}

/** Keys written before the run: 20 000 per vCPU (the report's data set fits memory too). */
const KEYS_PER_VCPU = 20_000;
/** Requests of the mixed run, over all connections (a few seconds on this 2-core host). */
const RUN_REQUESTS = 100_000;
const TIMEOUT_MS = 120_000;

export function canonicalSuite(type: InstanceTypeRow): Scenario[] {
  const connections = canonicalConnections(type);
  const keys = KEYS_PER_VCPU * Math.max(1, type.vcpu);
  const perConnection = Math.max(1, Math.ceil(RUN_REQUESTS / connections));
  const scaling = `${connections} connections (the report's 512, 64 per vCPU of the type's ${type.vcpu}), 1 client thread, ${keys} keys written first, ${perConnection * connections} requests in the mixed run; the report ran 512 connections for minutes on two 6-core CPUs with the client on a machine of its own`;
  const common = ['--threads=1', `--clients=${connections}`, `--keys=${keys}`];
  const base = { mode: 'canonical' as const, valueSize: undefined, connections, pipeline: 1, timeoutMs: TIMEOUT_MS, scaling };
  return [
    { ...base, name: 'canonical: write the key set', workload: 'canonical-load', flags: [...common, '--load'] },
    {
      ...base,
      name: 'canonical: 1 delete / 4 updates / 8 inserts / 64 reads (1-16 keys per get)',
      workload: 'canonical',
      flags: [...common, '--ratio=1:4:8:64', '--batch=1-16', '--key-size=8-16', '--value-size=8-128', `--requests=${perConnection}`],
    },
  ];
}
