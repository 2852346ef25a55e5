// Benchmark suites and the flags a customer may give a `custom` run. The flags are customer
// text: they become argv of basalt-bench (never a shell word), and only flags that shape the
// load are taken; where the client connects, with which credentials, and where it writes
// its report are the worker's to decide. One rule for the API (400), the console (before a
// round trip) and the worker (again, before it starts a process).

export const BENCHMARK_SUITES = ['memtier-standard', 'ycsb-standard', 'canonical', 'encryption-overhead', 'memtier-matrix', 'canonical-tables', 'canonical-durability', 'custom'] as const;
export type BenchmarkSuite = (typeof BENCHMARK_SUITES)[number];
/**
 * The suites a per-type report runs, in the order they run; each starts on an empty engine
 * (jobs/type-report.ts empties the temporary instance before each). memtier-standard runs
 * first, on the VM as it was made: its commands are the ones a customer reruns on a fresh
 * instance (issue 13's ±15 % promise), and run after ycsb's larger-than-memory load they read up
 * to 40 % below such reruns, emptied engine or not. The papers' whole matrix (memtier-matrix,
 * 48 rows) and the RethinkDB report's other tables (canonical-tables, canonical-durability) come
 * after the suites the earlier reports published, so those run as they did.
 */
export const STANDARD_SUITES = ['memtier-standard', 'ycsb-standard', 'canonical', 'encryption-overhead', 'memtier-matrix', 'canonical-tables', 'canonical-durability'] as const satisfies readonly BenchmarkSuite[];
export type StandardSuite = (typeof STANDARD_SUITES)[number];

/** At most this many tokens in a custom run's flags. */
export const BENCHMARK_FLAGS_MAX = 40;
/** Connections (threads × clients) a custom run may open. */
export const BENCHMARK_CONNECTIONS_MAX = 256;
/** Requests in a count-bounded custom run (requests per connection × connections). */
export const BENCHMARK_REQUESTS_MAX = 20_000_000;
/** Seconds of a time-bounded custom run (all its runs: --test-time × --run-count). */
export const BENCHMARK_TEST_TIME_MAX = 120;
/** Runs of a custom run's load (memtier's --run-count; the figure is their aggregate). */
export const BENCHMARK_RUN_COUNT_MAX = 10;
/**
 * Bytes of request buffers a custom run's client may hold: basalt-bench (like memtier) keeps a
 * whole pipeline of values per connection, so connections × pipeline × largest value is what
 * it allocates on the host it runs on, whatever the instance's size (issue 43).
 */
export const BENCHMARK_CLIENT_MEMORY_MAX = 256 * 1024 * 1024;
/** Benchmark runs of one project that may be pending or running at once. */
export const BENCHMARK_RUNS_PER_PROJECT_MAX = 2;

type Check = (value: string) => string | undefined;

const integer =
  (min: number, max: number): Check =>
  (value) =>
    /^\d{1,10}$/.test(value) && Number(value) >= min && Number(value) <= max ? undefined : `must be a whole number from ${min} to ${max}`;
const decimal: Check = (value) => (/^\d{1,10}(\.\d{1,6})?$/.test(value) ? undefined : 'must be a non-negative number');
const oneOf =
  (...values: string[]): Check =>
  (value) =>
    values.includes(value) ? undefined : `must be one of ${values.join(', ')}`;
const matches =
  (pattern: RegExp, what: string): Check =>
  (value) =>
    pattern.test(value) ? undefined : `must be ${what}`;

interface FlagSpec {
  long: string;
  short?: string;
  /** Absent for a switch (a flag without a value). */
  check?: Check;
}

const VALUE_MAX = 1024 * 1024;

/** The load-shaping flags of basalt-bench (memtier_benchmark's names and meanings). */
const FLAGS: FlagSpec[] = [
  { long: 'protocol', short: 'P', check: oneOf('redis', 'resp2', 'resp3') },
  { long: 'threads', short: 't', check: integer(1, 8) },
  { long: 'clients', short: 'c', check: integer(1, BENCHMARK_CONNECTIONS_MAX) },
  { long: 'requests', short: 'n', check: (v) => (v === 'allkeys' ? undefined : integer(1, BENCHMARK_REQUESTS_MAX)(v)) },
  { long: 'test-time', check: integer(1, BENCHMARK_TEST_TIME_MAX) },
  { long: 'run-count', short: 'x', check: integer(1, BENCHMARK_RUN_COUNT_MAX) },
  { long: 'ratio', check: matches(/^\d{1,4}:\d{1,4}$/, 'SET:GET, e.g. 1:10') },
  { long: 'pipeline', check: integer(1, 1024) },
  { long: 'data-size', short: 'd', check: integer(1, VALUE_MAX) },
  { long: 'data-size-range', check: matches(/^\d{1,7}-\d{1,7}$/, 'MIN-MAX, e.g. 32-1024') },
  { long: 'data-size-list', check: matches(/^\d{1,7}:\d{1,4}(,\d{1,7}:\d{1,4}){0,15}$/, 'SIZE:WEIGHT,..., e.g. 128:3,4096:1') },
  { long: 'data-size-pattern', check: oneOf('R', 'S') },
  { long: 'random-data', short: 'R' },
  { long: 'key-prefix', check: matches(/^[A-Za-z0-9:_.-]{0,32}$/, 'up to 32 letters, digits, or : _ . -') },
  { long: 'key-minimum', check: integer(0, 1_000_000_000) },
  { long: 'key-maximum', check: integer(0, 1_000_000_000) },
  { long: 'key-pattern', check: matches(/^[RSGP]:[RSGP]$/, 'SET:GET patterns of R, S, G, P, e.g. R:R') },
  { long: 'key-stddev', check: decimal },
  { long: 'key-median', check: decimal },
  { long: 'randomize' },
  { long: 'distinct-client-seed' },
  { long: 'rate-limiting', check: integer(1, 1_000_000) },
  { long: 'select-db', check: integer(0, 15) },
];

const BY_LONG = new Map(FLAGS.map((f) => [f.long, f]));
const BY_SHORT = new Map(FLAGS.filter((f) => f.short).map((f) => [f.short!, f]));

/** Names a custom run may use, for messages and the console's help text. */
export const BENCHMARK_FLAG_NAMES = FLAGS.map((f) => `--${f.long}`);

export type CustomFlagsResult =
  | { ok: true; /** Canonical argv: `--long=value` or `--long`, in the order given. */ args: string[]; values: Record<string, string | true> }
  | { ok: false; error: string };

/**
 * Reads a custom run's flags (`--name=value`, `--name value`, `-x value`, `--switch`) into
 * canonical argv; anything else, an unknown flag, a bad value or a run beyond the bounds is an
 * error that names the token.
 */
export function parseCustomFlags(tokens: unknown): CustomFlagsResult {
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string')) return { ok: false, error: 'flags must be a list of strings' };
  if (tokens.length > BENCHMARK_FLAGS_MAX) return { ok: false, error: `at most ${BENCHMARK_FLAGS_MAX} flags` };
  const values: Record<string, string | true> = {};
  const args: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    const long = /^--([a-z][a-z-]*)(?:=(.*))?$/s.exec(token);
    const short = /^-([A-Za-z])$/.exec(token);
    if (long) {
      spec = BY_LONG.get(long[1]!);
      inline = long[2];
    } else if (short) {
      spec = BY_SHORT.get(short[1]!);
    } else {
      return { ok: false, error: `${JSON.stringify(token)} is not a flag (write --name=value)` };
    }
    if (!spec) return { ok: false, error: `${JSON.stringify(token)} is not a flag a custom run may set (allowed: ${BENCHMARK_FLAG_NAMES.join(' ')})` };
    if (spec.long in values) return { ok: false, error: `--${spec.long} is given twice` };
    if (!spec.check) {
      if (inline !== undefined) return { ok: false, error: `--${spec.long} takes no value` };
      values[spec.long] = true;
      args.push(`--${spec.long}`);
      continue;
    }
    const value = inline ?? (tokens[++i] as string | undefined);
    if (value === undefined) return { ok: false, error: `--${spec.long} needs a value` };
    const problem = spec.check(value);
    if (problem) return { ok: false, error: `--${spec.long} ${problem}` };
    values[spec.long] = value;
    args.push(`--${spec.long}=${value}`);
  }
  const bounds = boundsProblem(values);
  return bounds ? { ok: false, error: bounds } : { ok: true, args, values };
}

/** memtier's defaults where a flag is absent: 4 threads, 50 clients, 10000 requests per client. */
function boundsProblem(values: Record<string, string | true>): string | undefined {
  const threads = Number(values.threads ?? 4);
  const clients = Number(values.clients ?? 50);
  const connections = threads * clients;
  if (connections > BENCHMARK_CONNECTIONS_MAX) return `threads × clients is ${connections}; at most ${BENCHMARK_CONNECTIONS_MAX} connections`;
  if (values['test-time'] !== undefined && values.requests !== undefined) return 'give --requests or --test-time, not both';
  const runs = Number(values['run-count'] ?? 1);
  if (values['test-time'] !== undefined && Number(values['test-time']) * runs > BENCHMARK_TEST_TIME_MAX) {
    return `test-time × run-count is ${Number(values['test-time']) * runs} s; at most ${BENCHMARK_TEST_TIME_MAX}`;
  }
  const requests = values.requests === 'allkeys' ? undefined : Number(values.requests ?? 10_000);
  if (values['test-time'] === undefined && requests !== undefined && requests * connections * runs > BENCHMARK_REQUESTS_MAX) {
    return `requests × connections × run-count is ${requests * connections * runs}; at most ${BENCHMARK_REQUESTS_MAX}`;
  }
  const pipeline = Number(values.pipeline ?? 1);
  const valueSize = largestValueSize(values);
  const memory = connections * pipeline * valueSize;
  if (memory > BENCHMARK_CLIENT_MEMORY_MAX) {
    return `connections × pipeline × value size is ${connections} × ${pipeline} × ${valueSize} B = ${mebibytes(memory)}; the client memory limit is ${mebibytes(BENCHMARK_CLIENT_MEMORY_MAX)}`;
  }
  const min = Number(values['key-minimum'] ?? 0);
  const max = Number(values['key-maximum'] ?? 10_000_000);
  if (min > max) return '--key-minimum is above --key-maximum';
  if (values.requests === 'allkeys' && max - min > BENCHMARK_REQUESTS_MAX) return `--requests=allkeys over more than ${BENCHMARK_REQUESTS_MAX} keys`;
  if (values.ratio === '0:0') return '--ratio 0:0 sends nothing';
  return undefined;
}

/** The largest value a run sends: --data-size, the top of --data-size-range or of --data-size-list; memtier's 32 B otherwise. */
function largestValueSize(values: Record<string, string | true>): number {
  const sizes: number[] = [];
  if (typeof values['data-size'] === 'string') sizes.push(Number(values['data-size']));
  if (typeof values['data-size-range'] === 'string') sizes.push(...values['data-size-range'].split('-').map(Number));
  if (typeof values['data-size-list'] === 'string') sizes.push(...values['data-size-list'].split(',').map((pair) => Number(pair.split(':')[0])));
  return sizes.length ? Math.max(...sizes) : 32;
}

const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
