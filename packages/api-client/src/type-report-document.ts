// A per-type benchmark report as one JSON document: what the report publishes (where, when, on
// what commit; per suite its setting and every scenario's figures and command), and nothing else.
// The worker makes it from the stored runs and stores it; docs/benchmarks/<type>.json is one
// committed; the markdown, the headline, the charts and the catalog's figures are all computed
// from it (benchmark-report.ts, type-report-derived.ts, benchmark-report-charts.ts), so none of
// them can drift from another. Pure TypeScript (runs in the browser too).
import type { components } from './schema.js';

type BenchmarkDto = components['schemas']['BenchmarkDto'];

/** The document's format; a loader refuses any other. */
export const TYPE_REPORT_FORMAT = 'basalt-type-report/1';

type StoredScenario = BenchmarkDto['scenarios'][number];

/**
 * One scenario on one server: a stored scenario's figures (BenchmarkScenarioDto) without the
 * tool's JSON or the run's bookkeeping, and what the renderer reads from that JSON named here.
 * Null where the figure was not published (see the document's `provenance_note`).
 */
export type ReportScenario = Omit<StoredScenario, 'command_line' | 'requests' | 'avg_latency_ms' | 'errors' | 'report' | 'instance_type' | 'started_at' | 'finished_at'> & {
  /** The exact command the worker ran, the password shown as <password>. */
  command_line: string | null;
  requests: number | null;
  avg_latency_ms: number | null;
  errors: number | null;
  /** How many rounds the scenario was measured in (its figures are the median round's); 1 for once. */
  rounds: number;
  /** ycsb-standard: the operations that read a value from disk, as the engine counted them. */
  cold_reads: number | null;
};

/** What the worker wrote about a run's setting (the run's `results`, without the tool's reports). */
export interface ReportRunSetting {
  scaling?: string[];
  peer?: { server: 'redis' | 'memcached'; version: string; placement?: string } | null;
  /** Why a suite has no peer. */
  peer_note?: string | null;
  peer_skipped?: { name: string; why: string }[];
  client?: { address?: string; network_namespace?: boolean; bridge?: string | null };
  /** encryption-overhead: where its engines (one per scenario, not the instance) ran. */
  engines?: { placement?: string } | null;
}

export interface ReportRun {
  workload: string;
  results: ReportRunSetting;
  scenarios: ReportScenario[];
}

export interface TypeReportDocument {
  format: typeof TYPE_REPORT_FORMAT;
  instance_type: string;
  /** "1 vCPU, 2 GiB" */
  type_size: string;
  /** When the runs started (ISO date-time). */
  measured_at: string;
  /** The host: CPU model, cores, memory, kernel. */
  host: string;
  /** Load on the host while the runs went, as measured. */
  load: string;
  /** The Basalt commit the worker and the engine were built from; null when not a git checkout. */
  commit: string | null;
  /** How the document was made when not written by the pipeline itself (null when it was). */
  provenance_note: string | null;
  runs: ReportRun[];
}

export interface ReportMeta {
  instanceType: string;
  typeSize: string;
  measuredAt: string;
  host: string;
  load: string;
  commit: string | null;
}

const counters = (report: unknown) => (report as { 'engine counters'?: { cold_reads?: unknown } } | undefined)?.['engine counters'];

/** A stored run's scenario as the document holds it (its figures; the tool's JSON left out). */
function scenarioOf(s: BenchmarkDto['scenarios'][number]): ReportScenario {
  const cold = counters(s.report)?.cold_reads;
  const rounds = (s.report as { rounds?: unknown[] } | undefined)?.rounds;
  return {
    position: s.position,
    name: s.name,
    server: s.server,
    tool: s.tool,
    engine_version: s.engine_version,
    command_line: s.command_line,
    memtier_command: s.memtier_command,
    ycsb_command: s.ycsb_command,
    workload: s.workload,
    value_size: s.value_size,
    connections: s.connections,
    pipeline: s.pipeline,
    requests: s.requests,
    qps: s.qps,
    avg_latency_ms: s.avg_latency_ms,
    p50_latency_ms: s.p50_latency_ms,
    p99_latency_ms: s.p99_latency_ms,
    p999_latency_ms: s.p999_latency_ms,
    errors: s.errors,
    rounds: Array.isArray(rounds) && rounds.length > 0 ? rounds.length : (s.round_ops_per_sec?.length ?? 1),
    round_ops_per_sec: s.round_ops_per_sec,
    cold_reads: typeof cold === 'number' ? cold : null,
    encryption: s.encryption,
  };
}

const SETTING_KEYS = ['scaling', 'peer', 'peer_note', 'peer_skipped', 'client', 'engines'] as const;

/** The document of a report made from its stored runs (as the API serves them, with their reports). */
export function typeReportDocumentOf(meta: ReportMeta, runs: BenchmarkDto[]): TypeReportDocument {
  return {
    format: TYPE_REPORT_FORMAT,
    instance_type: meta.instanceType,
    type_size: meta.typeSize,
    measured_at: meta.measuredAt,
    host: meta.host,
    load: meta.load,
    commit: meta.commit,
    provenance_note: null,
    runs: runs.map((run) => {
      const results = (run.results ?? {}) as Record<string, unknown>;
      const setting = Object.fromEntries(SETTING_KEYS.filter((k) => results[k] !== undefined).map((k) => [k, results[k]])) as ReportRunSetting;
      return { workload: run.workload, results: setting, scenarios: run.scenarios.map(scenarioOf) };
    }),
  };
}

/** Why `value` is not a document a loader may take; null when it is. Checks the provenance and the shape the renderer reads. */
export function typeReportDocumentProblem(value: unknown): string | null {
  const doc = value as Partial<TypeReportDocument> | null;
  if (!doc || typeof doc !== 'object') return 'not an object';
  if (doc.format !== TYPE_REPORT_FORMAT) return `format is not ${TYPE_REPORT_FORMAT}`;
  for (const key of ['instance_type', 'type_size', 'measured_at', 'host', 'load'] as const) {
    if (typeof doc[key] !== 'string' || !doc[key]) return `${key} is missing`;
  }
  if (Number.isNaN(Date.parse(doc.measured_at!))) return 'measured_at is not a date-time';
  if (doc.commit !== null && typeof doc.commit !== 'string') return 'commit is neither a string nor null';
  if (!Array.isArray(doc.runs) || doc.runs.length === 0) return 'it has no runs';
  for (const run of doc.runs) {
    if (typeof run?.workload !== 'string' || !Array.isArray(run.scenarios) || typeof run.results !== 'object' || run.results === null) return 'a run lacks its workload, results or scenarios';
    for (const s of run.scenarios) {
      if (typeof s?.name !== 'string' || typeof s.qps !== 'number' || typeof s.position !== 'number' || typeof s.server !== 'string') return `a scenario of ${run.workload} lacks its name, position, server or qps`;
    }
  }
  return null;
}
