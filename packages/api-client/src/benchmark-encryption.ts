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
 * The variant a stored scenario ran with: the `encryption` object the worker puts beside
 * basalt-bench's JSON (checked against the engine's own INFO security before the run).
 */
export function encryptionVariantOf(report: unknown): EncryptionVariant | undefined {
  const value = report && typeof report === 'object' ? (report as Record<string, unknown>).encryption : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const { tls, at_rest } = value as Record<string, unknown>;
  return typeof tls === 'boolean' && typeof at_rest === 'boolean' ? { tls, at_rest } : undefined;
}

/** The fields of a stored scenario (the API's BenchmarkScenarioDto) the table reads. */
export interface EncryptionScenario {
  name: string;
  server: string;
  value_size: number | null;
  qps: number;
  p99_latency_ms: number | null;
  report?: Record<string, unknown> | null;
}

export interface EncryptionOverheadRow<S extends EncryptionScenario = EncryptionScenario> {
  valueSize: number | null;
  variant: EncryptionVariant;
  label: string;
  scenario: S;
  /** ops/s of the variant without any encryption on the same value size, same run. */
  baselineQps: number | null;
  /** (baseline − this) / baseline × 100: positive is slower than without encryption. */
  overheadPercent: number | null;
}

const same = (a: EncryptionVariant, b: EncryptionVariant) => a.tls === b.tls && a.at_rest === b.at_rest;

/**
 * One row per measured variant and value size, in the suite's order (value size, then
 * variant), each with the overhead against the unencrypted variant of its value size.
 * Scenarios without a variant (another suite's) are left out.
 */
export function encryptionOverhead<S extends EncryptionScenario>(scenarios: readonly S[]): EncryptionOverheadRow<S>[] {
  const measured = scenarios.flatMap((scenario) => {
    const variant = scenario.server === 'basalt' ? encryptionVariantOf(scenario.report) : undefined;
    return variant ? [{ scenario, variant }] : [];
  });
  const sizes = [...new Set(measured.map((m) => m.scenario.value_size))];
  return sizes.flatMap((valueSize) => {
    const ofSize = measured.filter((m) => m.scenario.value_size === valueSize);
    const baseline = ofSize.find((m) => same(m.variant, ENCRYPTION_VARIANTS[0]!))?.scenario.qps;
    const order = (v: EncryptionVariant) => ENCRYPTION_VARIANTS.findIndex((x) => same(x, v));
    return [...ofSize]
      .sort((a, b) => order(a.variant) - order(b.variant))
      .map(({ scenario, variant }) => ({
        valueSize,
        variant,
        label: encryptionVariantLabel(variant),
        scenario,
        baselineQps: baseline ?? null,
        overheadPercent: baseline && baseline > 0 ? ((baseline - scenario.qps) / baseline) * 100 : null,
      }));
  });
}
