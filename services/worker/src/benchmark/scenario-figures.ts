// The headline figures of one scenario, read from basalt-bench's JSON report (memtier's
// layout: the command's section, "ALL STATS" or the aggregate of --run-count runs, → "Totals"),
// so the stored row and the report can never disagree.
import { benchResultSection } from '@basalt/api-client';
import { StepError } from '../errors.js';

export interface ScenarioFigures {
  requests: number;
  qps: number;
  avgLatencyMs: number;
  p50LatencyMs: number | null;
  p99LatencyMs: number | null;
  p999LatencyMs: number | null;
  errors: number;
  tool: string;
}

type Json = Record<string, unknown>;

const object = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export function scenarioFigures(report: Json): ScenarioFigures {
  const totals = object(benchResultSection(report)?.Totals);
  if (!totals) throw new StepError('run_scenarios', 'basalt-bench wrote a report without totals ("ALL STATS" or "AGGREGATED AVERAGE RESULTS")');
  const required = (key: string): number => {
    const value = number(totals[key]);
    if (value === undefined) throw new StepError('run_scenarios', `basalt-bench's totals have no ${JSON.stringify(key)}`);
    return value;
  };
  const percentiles = object(totals['Percentile Latencies']) ?? {};
  const tool = object(report['run information'])?.Tool;
  return {
    requests: required('Count'),
    qps: required('Ops/sec'),
    avgLatencyMs: required('Average Latency'),
    p50LatencyMs: number(percentiles['p50.00']) ?? null,
    p99LatencyMs: number(percentiles['p99.00']) ?? null,
    p999LatencyMs: number(percentiles['p99.90']) ?? null,
    errors: number(totals.Errors) ?? 0,
    tool: typeof tool === 'string' ? tool : 'basalt-bench',
  };
}
