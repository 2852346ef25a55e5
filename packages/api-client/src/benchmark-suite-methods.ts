// How the report describes the suites of the papers' whole tables (issue 46), and which of
// them show the peer's average latency beside Basalt's (the papers' tables give average and p99
// for every row). Only suites a report ran are described, so the reports published before these
// suites existed render as they did. Pure TypeScript (runs in the browser too).

export const TABLE_SUITE_METHODS: Record<string, string> = {
  'memtier-matrix':
    "- **memtier-matrix** is PolarDB Orca's memtier_benchmark matrix as the paper lays it out: 128 B, 1 KB, 4 KB and 16 KB values × ping-pong and `--pipeline=32` × write-only, read-only and mixed 1:1 × two connection levels (the paper's 128 and 512; here memtier-standard's level and 4× it, see Scaling), 48 rows, each against Basalt and Redis in the same run, each the median of 3 rounds.",
  'canonical-tables':
    "- **canonical-tables** are the other tables of RethinkDB's report over the memcached protocol, beside memcached: pure select (gets of 1–16 keys), pure insert (adds of new keys), low memory (the canonical mix with the engine's cache bound set to a quarter of its data for the run; memcached, a cache, has no figure, as Membase has none in the report), concurrent connections (the canonical mix at 16 to 1,024 connections, each level on a key set of its own written first) and large values (the canonical mix with 4–64 KB values). The report's rotational-drive table is left out (no such drive here), and so is multicore scaling: the engine's thread count is fixed when it starts.",
  'canonical-durability':
    "- **canonical-durability** is RethinkDB's strong-durability table: the canonical mix over the Redis protocol (1 DEL / 12 SET / 64 GET of random keys, 8–128 B values; memcached keeps nothing on disk, so the peer is Redis with AOF), with `appendfsync always` (each write on disk before its reply) and with `everysec`, set on both servers for the run with `CONFIG SET appendfsync` and put back afterwards.",
};

/** Method lines for the table suites among `workloads`, in the order they ran. */
export function tableSuiteMethods(workloads: readonly string[]): string[] {
  return workloads.flatMap((w) => (TABLE_SUITE_METHODS[w] ? [TABLE_SUITE_METHODS[w]] : []));
}

/** Whether a suite's table shows the peer's average latency too. */
export const showsPeerAverage = (workload: string) => workload in TABLE_SUITE_METHODS;
