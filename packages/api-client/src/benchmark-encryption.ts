// The encryption-overhead suite's four variants and the overhead table made from its stored
// rows, in the shape of PolarDB's encryption-overhead table (plaintext ops/s | encrypted
// ops/s | overhead %). One source for the worker (which variants to start, in which order),
// the report renderer and the console: an overhead is always computed from two stored
// figures of the same run, never typed by hand. Pure TypeScript (runs in the browser too).

/** Which of the two encryptions an engine of the suite ran with. */
export interface EncryptionVariant {
  /** Clients spoke TLS to the engine's TLS port; its plaintext port was off. */
  tls: boolean;
  /** The engine sealed every key and value it wrote to disk (--encryption-key-file). */
  at_rest: boolean;
}

/** In the order the suite runs them; the first is the baseline every overhead is measured against. */
export const ENCRYPTION_VARIANTS: readonly EncryptionVariant[] = [
  { tls: false, at_rest: false },
  { tls: true, at_rest: false },
  { tls: false, at_rest: true },
  { tls: true, at_rest: true },
];

export function encryptionVariantLabel(variant: EncryptionVariant): string {
  if (variant.tls && variant.at_rest) return 'TLS and encryption at rest';
  if (variant.tls) return 'TLS';
  if (variant.at_rest) return 'encryption at rest';
  return 'no encryption';
}

/**
 * The variant of a stored scenario from the `encryption` object the worker puts beside
 * basalt-bench's JSON (checked against the engine's own INFO security before the run);
 * null for any other scenario. The API serves it as the scenario's `encryption`.
 */
export function encryptionVariantOf(stored: unknown): EncryptionVariant | null {
  if (!stored || typeof stored !== 'object') return null;
  const { tls, at_rest } = stored as Record<string, unknown>;
  return typeof tls === 'boolean' && typeof at_rest === 'boolean' ? { tls, at_rest } : null;
}

/** The fields of a stored scenario (the API's BenchmarkScenarioDto) the table reads. */
export interface EncryptionScenario {
  name: string;
  server: string;
  value_size: number | null;
  qps: number;
  p99_latency_ms: number | null;
  encryption: EncryptionVariant | null;
  /** Every round's ops/s of a row measured in rounds; null for a row of one run. */
  round_ops_per_sec: number[] | null;
}

export interface EncryptionOverheadRow<S extends EncryptionScenario = EncryptionScenario> {
  valueSize: number | null;
  variant: EncryptionVariant;
  label: string;
  /** The rows of this variant at this value size: one, measured in rounds (older runs: a row per round). */
  scenarios: S[];
  /** Its runs: every round of those rows. */
  runs: number;
  /** The median ops/s over those runs, and the lowest and highest. */
  qps: number;
  minQps: number;
  maxQps: number;
  /** The median p99 over the rows (ms; a row in rounds: its median round's), null when none has one. */
  p99LatencyMs: number | null;
  /** The median ops/s without any encryption at the same value size, same run. */
  baselineQps: number | null;
  /** (baseline − this) / baseline × 100 of the medians: positive is slower than without encryption. */
  overheadPercent: number | null;
}

const same = (a: EncryptionVariant, b: EncryptionVariant) => a.tls === b.tls && a.at_rest === b.at_rest;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * One row per variant and value size, in the suite's order (value size, then variant): the
 * median of its runs (a burst of other work on the shared host moves one run, not the median)
 * and the overhead of that median against the unencrypted variant's median of the same value
 * size. Scenarios without a variant (another suite's) are left out.
 */
export function encryptionOverhead<S extends EncryptionScenario>(scenarios: readonly S[]): EncryptionOverheadRow<S>[] {
  const measured = scenarios.filter((s) => s.server === 'basalt' && s.encryption);
  const sizes = [...new Set(measured.map((s) => s.value_size))];
  return sizes.flatMap((valueSize) => {
    const ofSize = measured.filter((s) => s.value_size === valueSize);
    const runsOf = (variant: EncryptionVariant) => ofSize.filter((s) => same(s.encryption!, variant));
    // A row measured in rounds counts each round; a row of one run (older runs stored a row per round) counts once.
    const opsOf = (rows: S[]) => rows.flatMap((s) => s.round_ops_per_sec ?? [s.qps]);
    const baseline = median(opsOf(runsOf(ENCRYPTION_VARIANTS[0]!)));
    return ENCRYPTION_VARIANTS.flatMap((variant) => {
      const runs = runsOf(variant);
      if (runs.length === 0) return [];
      const ops = opsOf(runs);
      const qps = median(ops)!;
      return [
        {
          valueSize,
          variant,
          label: encryptionVariantLabel(variant),
          scenarios: runs,
          runs: ops.length,
          qps,
          minQps: Math.min(...ops),
          maxQps: Math.max(...ops),
          p99LatencyMs: median(runs.flatMap((s) => (s.p99_latency_ms === null ? [] : [s.p99_latency_ms]))),
          baselineQps: baseline,
          overheadPercent: baseline && baseline > 0 ? ((baseline - qps) / baseline) * 100 : null,
        },
      ];
    });
  });
}
