// The typed contract of a per-type benchmark report's JSON columns (schema.ts
// instance_type_reports): written by the worker's benchmark_report job, served by the API.

/** A peer measured beside the engine in the report's runs. */
export interface ReportPeer {
  server: 'redis' | 'memcached';
  version: string;
}

/** The catalog's figures, computed from the report's rows (never written by hand). */
export interface ReportHeadline {
  /** memtier-standard read-only 128 B ping-pong, Basalt. */
  reads_per_sec: number | null;
  /** memtier-standard write-only 128 B ping-pong, Basalt. */
  writes_per_sec: number | null;
  /** p99 of that read scenario, ms. */
  p99_latency_ms: number | null;
  /** Median of Basalt/peer QPS over the scenarios with a peer figure. */
  peer_ratio: number | null;
}

/** The report as one JSON document (docs/benchmarks/<type>.json is one); its contract lives with its renderer. */
export type { TypeReportDocument } from '@basalt/api-client/rules';
