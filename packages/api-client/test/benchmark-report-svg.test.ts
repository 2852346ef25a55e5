import { describe, expect, it } from 'vitest';
import { barChartSvg, typeReportDocumentProblem } from '../src/index.js';
import { suiteCharts, type ChartScenario } from '../src/rules.js';

const scenario = (over: Partial<ChartScenario>): ChartScenario => ({
  position: 1, name: 'write-only 128 B, ping-pong', server: 'basalt', workload: 'write-only', value_size: 128, pipeline: 1, qps: 90444.4,
  p99_latency_ms: 0.22, engine_version: '0.1.0', encryption: null, round_ops_per_sec: null, ...over,
});

describe('suiteCharts and barChartSvg', () => {
  const scenarios = [
    scenario({}),
    scenario({ server: 'redis', engine_version: 'Redis 7.0.15', qps: 94075 }),
    scenario({ position: 2, name: 'write-only 4 KB, ping-pong', value_size: 4096, qps: 58411 }),
  ];

  it("gives the console's three charts of a run at two value sizes, Basalt beside its peer", () => {
    const charts = suiteCharts({ workload: 'memtier-standard', scenarios });
    expect(charts.map((c) => [c.key, c.title])).toEqual([
      ['qps-by-size', 'memtier-standard: ops/s by value size and pipeline'],
      ['ops', 'memtier-standard: ops/s, Basalt vs peer'],
      ['p99', 'memtier-standard: p99 latency, Basalt vs peer'],
    ]);
    expect(charts[1]!.chart.data[0]).toEqual({ label: 'write-only 128 B, ping-pong', basalt: 90444.4, peer: 94075 });
    expect(charts[1]!.chart.series.map((s) => s.name)).toEqual(['Basalt', 'Redis 7.0.15']);
  });

  it('draws one bar per figure, the same bytes each time, labels as text (never markup)', () => {
    const [, ops] = suiteCharts({ workload: 'memtier-standard', scenarios: [...scenarios, scenario({ position: 3, name: '<script>alert(1)</script> & "x"', value_size: null, qps: 800000 })] });
    const svg = barChartSvg(ops!);
    expect(svg).toBe(barChartSvg(ops!));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<rect [^>]*rx="2" fill/g)).toHaveLength(4 + 2);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('>800k<');
    expect(svg).toContain('>90k<');
  });
});

describe('typeReportDocumentProblem', () => {
  it('refuses a document without its provenance', () => {
    expect(typeReportDocumentProblem({ format: 'basalt-type-report/1', instance_type: 'kv.standard.small', type_size: '1 vCPU', measured_at: '2026-11-27T03:10:53Z', host: '', load: 'x', commit: null, runs: [] })).toBe('host is missing');
    expect(typeReportDocumentProblem({ format: 'other' })).toBe('format is not basalt-type-report/1');
  });
});
