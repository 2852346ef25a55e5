// The benchmark client's cgroup (issue 43). basalt-bench is a load generator on the worker's own
// host: beside the API's cap on its buffers (BENCHMARK_CLIENT_MEMORY_MAX), it runs in a cgroup of
// its own with a memory bound and one core's worth of CPU, so no run — the customer's flags
// included — can take the host's memory or more than its seat of CPU from the worker, the API
// and the other runs beside it. The cgroup is named for the run (`basalt-bench-<12 hex>`, like
// its network namespace) under the `basalt` group: made before the run's first scenario after
// removing whatever a killed attempt left (its processes first), entered by the client before
// it runs (bench-process.ts), removed when the run ends.
// Where no cgroup can be made (not root, no writable cgroup fs), the run says so in one line and
// the client runs under prlimit's address-space limit alone (bench-process.ts).
import { BENCHMARK_CLIENT_MEMORY_MAX } from '@basalt/api-client/rules';
import { outputTail } from '../process.js';
import { namespaceNames } from './client-namespace.js';
import { runCgroup, type CgroupHost } from './host-cgroup.js';

/**
 * The client's memory bound: eight times the buffers the API allows, and 256 MiB for the rest
 * (threads, histograms, the JSON report). basalt-bench holds more than one copy of a pipeline
 * of values per connection, and how many depends on how its buffers grew: at the API's cap
 * (one connection, --pipeline=256 of 1 MiB values) its resident peak measured 0.4-0.9 GiB from
 * run to run, 0.6 GiB with 256 connections of one 1 MiB value, and four times the buffers
 * (1.25 GiB) was once too few for it in its cgroup of one CPU. Past the bound the kernel's OOM
 * killer ends the client alone, and the run fails with its exit.
 */
export const CLIENT_CGROUP_MEMORY_MB = (8 * BENCHMARK_CLIENT_MEMORY_MAX) / 1024 ** 2 + 256;
/** One core's worth of CPU (the cgroup's quota per period), whatever its --threads. */
export const CLIENT_CGROUP_CPUS = 1;

export type ClientCgroup =
  | { name: string; cpus: number; memoryMb: number }
  /** No cgroup: why, in the words of the failed step. */
  | { name: undefined; unavailable: string };

export function clientCgroupName(benchmarkId: string): string {
  return namespaceNames(benchmarkId, 'client').name;
}

/** Makes the run's client cgroup with its limits, after removing a leftover of an earlier attempt. */
export async function createClientCgroup(host: CgroupHost, benchmarkId: string): Promise<ClientCgroup> {
  const name = clientCgroupName(benchmarkId);
  await removeClientCgroup(host, benchmarkId);
  const made = await runCgroup(host, 'create', name, String(CLIENT_CGROUP_CPUS), String(CLIENT_CGROUP_MEMORY_MB));
  if (made.exitCode === 0) return { name, cpus: CLIENT_CGROUP_CPUS, memoryMb: CLIENT_CGROUP_MEMORY_MB };
  await runCgroup(host, 'remove', name);
  return { name: undefined, unavailable: outputTail(made.stderr || made.stdout, 1) || `cgroup.sh exited with ${made.exitCode}` };
}

/** Kills what runs in the run's client cgroup (a client a killed worker left) and removes it; absent is fine. */
export async function removeClientCgroup(host: CgroupHost, benchmarkId: string): Promise<void> {
  const name = clientCgroupName(benchmarkId);
  await runCgroup(host, 'kill', name);
  await runCgroup(host, 'remove', name);
}
