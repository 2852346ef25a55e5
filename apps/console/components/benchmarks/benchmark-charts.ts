// What the benchmark charts plot, shaped from a run's rows (benchmark-rows.ts): the series code
// lives in @basalt/api-client (benchmark-report-charts.ts), so the committed reports' SVG charts
// (docs/benchmarks) are drawn from the same series as these.
export { basaltVsPeer, formatValueSize, qpsByValueSizeAndPipeline, seriesColour, type BarChartData, type ChartSeries } from '@basalt/api-client/rules'
