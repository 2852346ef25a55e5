// The `encryption-overhead` suite: memtier's mixed 1:1 workload (ping-pong) against four
// engines of the build the instances run, started for the run like the peer (a network
// namespace on the bridge and a cgroup of the type's VM size): without encryption, with TLS,
// with encryption at rest, with both (ENCRYPTION_VARIANTS). The overhead of each is computed
// from the stored rows against the first (encryptionOverhead in @basalt/api-client), as
// PolarDB's encryption-overhead table sets plaintext against encrypted throughput.
import { ENCRYPTION_VARIANTS, encryptionVariantLabel } from '@basalt/api-client/rules';
import type { InstanceTypeRow } from '@basalt/db';
import { standardConnections, type Scenario } from './suites.js';

const SIZES = [128, 4096];
/**
 * A small key set, so that after its first thousand SETs nearly every GET finds a value (each
 * engine starts empty): a GET that misses sends no value back, and TLS would have less to
 * encrypt than in the workload measured.
 */
const KEYS = 1_000;
/**
 * The suite's list (both sizes, the four variants each) runs in ROUNDS rounds, each run against
 * a fresh engine; a variant's row is its median round's (rounds.ts, as memtier-standard). On a
 * shared host one run of a few seconds moved by up to 2× with others' work; the median of
 * interleaved rounds is what a burst does not move.
 */
const ROUNDS = 3;
/** Requests per run over all connections: 1-3 s each on this 2-core host. */
const REQUESTS = 30_000;
const TIMEOUT_MS = 120_000;
/** The suite's keys start with it: what an engine with encryption at rest must never write to disk in the clear. */
export const ENCRYPTION_SUITE_KEY_PREFIX = 'memtier-';

export function encryptionOverheadSuite(type: InstanceTypeRow): Scenario[] {
  const connections = standardConnections(type);
  const perConnection = Math.max(1, Math.ceil(REQUESTS / connections));
  const scaling =
    `${connections} connections (8 per vCPU of the type's ${type.vcpu}, at most 64), 1 client thread, ping-pong, ` +
    `${perConnection * connections} requests per run over ${KEYS} keys, ${ROUNDS} rounds of the list (both value sizes, the four variants each), a variant's row its median round's; each run against a fresh, empty engine of the instances' build started for it ` +
    `beside the instance and placed like it (not the instance itself; where: see Environment), the instance's fsync policy; the overhead is of the median of a variant's rounds against the median without encryption, same value size, same run`;
  return SIZES.flatMap((size) => {
    const label = size >= 1024 ? `${size / 1024} KB` : `${size} B`;
    const flags = ['--threads=1', `--clients=${connections}`, '--random-data', '--distinct-client-seed', `--key-prefix=${ENCRYPTION_SUITE_KEY_PREFIX}`, '--key-minimum=1', `--key-maximum=${KEYS}`, `--data-size=${size}`, '--ratio=1:1', '--key-pattern=R:R', `--requests=${perConnection}`, '--pipeline=1'];
    return ENCRYPTION_VARIANTS.map(
      (variant): Scenario => ({
        name: `mixed 1:1 ${label}, ping-pong: ${encryptionVariantLabel(variant)}`,
        mode: 'memtier',
        workload: 'mixed-1:1',
        valueSize: size,
        connections,
        pipeline: 1,
        flags,
        timeoutMs: TIMEOUT_MS,
        rounds: ROUNDS,
        scaling,
        encryption: variant,
      }),
    );
  });
}
