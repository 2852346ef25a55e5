// Where basalt-bench's JSON report (memtier_benchmark's layout) holds the figures of the whole
// command: "ALL STATS" for one run; with --run-count=N > 1, "AGGREGATED AVERAGE RESULTS (N runs)"
// (every run's requests together over every run's time: the figure memtier prints last), beside
// "RUN #i RESULTS", "BEST RUN RESULTS" and "WORST RUN RESULTS". One rule for the worker, which
// stores a scenario's figures from it, and for everyone who reads a report file again.

type Json = Record<string, unknown>;

const AGGREGATED = /^AGGREGATED AVERAGE RESULTS \(\d+ runs\)$/;

/** The section of a command's figures (its rows: Sets, Gets, Totals, ...); undefined when none. */
export function benchResultSection(report: Json): Record<string, Json> | undefined {
  const key = 'ALL STATS' in report ? 'ALL STATS' : Object.keys(report).find((k) => AGGREGATED.test(k));
  const section = key === undefined ? undefined : report[key];
  return section && typeof section === 'object' && !Array.isArray(section) ? (section as Record<string, Json>) : undefined;
}
