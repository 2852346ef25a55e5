// The files of a committed report (docs/benchmarks): <type>.json is the document itself, and
// everything else is made from it here: <type>.md (the white paper, linking its charts) and one
// SVG per chart of each suite. publish-report.test.ts writes them after a publish; a unit test
// checks the committed files are exactly what this makes of the committed JSON.
import { suiteCharts } from './benchmark-report-charts.js';
import { renderBenchmarkReport } from './benchmark-report.js';
import { barChartSvg } from './benchmark-report-svg.js';
import type { TypeReportDocument } from './type-report-document.js';

export interface ReportFile {
  name: string;
  content: string;
}

/** The document as committed: two-space JSON and a final newline. */
export const reportJson = (doc: TypeReportDocument) => `${JSON.stringify(doc, null, 2)}\n`;

export function typeReportFiles(doc: TypeReportDocument): ReportFile[] {
  const base = doc.instance_type;
  const charts = doc.runs.map((run) => suiteCharts(run).map((chart) => ({ chart, file: `${base}.${run.workload}.${chart.key}.svg` })));
  const markdown = renderBenchmarkReport(doc, { charts: (_run, i) => charts[i]!.map(({ chart, file }) => ({ title: chart.title, file })) });
  return [
    { name: `${base}.json`, content: reportJson(doc) },
    { name: `${base}.md`, content: markdown },
    ...charts.flat().map(({ chart, file }) => ({ name: file, content: barChartSvg(chart) })),
  ];
}
