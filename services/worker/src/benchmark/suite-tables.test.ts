// The plans of the papers' whole tables (issue 46): memtier-matrix's 48 rows and their scaling,
// canonical-tables' key ranges and connection levels, canonical-durability's fsync policies, for
// the catalog's own types; and the argv they give basalt-bench, which its own parser takes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARK_CLIENT_MEMORY_MAX, STANDARD_SUITES } from '@basalt/api-client/rules';
import { INSTANCE_TYPES, type InstanceTypeRow } from '@basalt/db';
import { CANONICAL_KEY_SPACE_CONNECTIONS } from './suite-canonical-tables.js';
import { matrixConnectionLevels, matrixConnections, matrixKeys } from './suite-memtier-matrix.js';
import { peerOf, planScenarios, type Scenario } from './suites.js';

const type = (id: string) => INSTANCE_TYPES.find((t) => t.id === id) as unknown as InstanceTypeRow;
const small = type('kv.standard.small');
const large = type('kv.standard.large');
const biggest = type('kv.standard.13xlarge');
const BENCH = process.env.BASALT_BENCH_BIN ?? path.resolve(import.meta.dirname, '../../../../engine/target/release/basalt-bench');

const flag = (s: Scenario, name: string) => s.flags.find((f) => f.startsWith(`--${name}=`))?.split('=').slice(1).join('=');

describe('memtier-matrix', () => {
  it("48 rows: 4 sizes × ping-pong and pipeline 32 × write, read, mixed × two levels, beside Redis", () => {
    const plan = planScenarios('memtier-matrix', small, {});
    expect(plan).toHaveLength(48);
    expect(peerOf('memtier-matrix')).toBe('redis');
    const cells = new Set(plan.map((s) => `${s.valueSize}/${s.pipeline}/${s.workload}/${s.connections}`));
    expect(cells.size).toBe(48);
    expect([...new Set(plan.map((s) => s.valueSize))]).toEqual([128, 1024, 4096, 16_384]);
    expect([...new Set(plan.map((s) => s.workload))]).toEqual(['write-only', 'read-only', 'mixed-1:1']);
    expect(plan.slice(0, 3).map((s) => s.name)).toEqual(['write-only 128 B, ping-pong, 8 conns', 'read-only 128 B, ping-pong, 8 conns', 'mixed 1:1 128 B, ping-pong, 8 conns']);
    expect(plan.every((s) => s.rounds === 3 && flag(s, 'test-time') === '4' && flag(s, 'ratio') !== undefined)).toBe(true);
    // Within a size, the write-only run comes before any read of the keys it writes.
    for (const size of [128, 1024, 4096, 16_384]) {
      const mine = plan.filter((s) => s.valueSize === size);
      expect(mine[0]!.workload).toBe('write-only');
    }
  });

  it('connections: the standard level and 4× it, within the type and the client memory bound', () => {
    expect(matrixConnectionLevels(small)).toEqual([8, 32]);
    expect(matrixConnectionLevels(large)).toEqual([16, 64]);
    expect(matrixConnectionLevels(biggest)).toEqual([64, 256]);
    expect(matrixConnectionLevels({ vcpu: 4, maxConnections: 20 })).toEqual([20, 20]);
    for (const t of [small, large, biggest]) {
      for (const s of planScenarios('memtier-matrix', t, {})) expect(s.connections * s.pipeline * s.valueSize!).toBeLessThanOrEqual(BENCHMARK_CLIENT_MEMORY_MAX);
    }
    // The bound bites at 16 KB × 32 only past 512 connections (no catalog type's level is that high).
    expect([matrixConnections(1024, 32, 16_384), matrixConnections(1024, 1, 16_384), matrixConnections(256, 32, 16_384)]).toEqual([512, 1024, 256]);
  });

  it('keys: at most 20 000 per size, their data within 64 MiB and an eighth of the cache bound', () => {
    expect([128, 1024, 4096, 16_384].map((size) => matrixKeys(small, size))).toEqual([20_000, 20_000, 16_384, 4_096]);
    const tiny = { vcpu: 1, memoryGib: 0.25 } as InstanceTypeRow; // 192 MB cache: 24 MB of data
    expect(matrixKeys(tiny, 16_384)).toBe(Math.floor((192 * 2 ** 20) / 8 / 16_384));
    for (const s of planScenarios('memtier-matrix', small, {})) expect(Number(flag(s, 'key-maximum')) * s.valueSize!).toBeLessThanOrEqual(64 * 2 ** 20);
  });

  it('memtier-standard keeps its 6 rows', () => {
    expect(planScenarios('memtier-standard', small, {})).toHaveLength(6);
  });
});

describe('canonical-tables', () => {
  const plan = planScenarios('canonical-tables', small, {});

  it('the RethinkDB tables beside memcached: select, insert, low memory, 16 → 1,024 connections, large values', () => {
    expect(peerOf('canonical-tables')).toBe('memcached');
    expect(plan.map((s) => [s.workload, s.connections])).toEqual([
      ['canonical-load', 64],
      ['pure-select', 64],
      ['low-memory', 64],
      ['pure-insert', 64],
      ['canonical-load', 16],
      ['canonical', 16],
      ['canonical-load', 64],
      ['canonical', 64],
      ['canonical-load', 256],
      ['canonical', 256],
      ['canonical-load', 1024],
      ['canonical', 1024],
      ['canonical-load', 64],
      ['large-values', 64],
    ]);
    expect(plan.every((s) => s.mode === 'canonical')).toBe(true);
    expect(flag(plan[1]!, 'ratio')).toBe('0:0:0:1');
    expect(flag(plan[3]!, 'ratio')).toBe('0:0:1:0');
    expect(flag(plan[3]!, 'keys')).toBe('0');
    expect(flag(plan.at(-1)!, 'value-size')).toBe('4096-65536');
  });

  it('low memory: the cache at a quarter of the data, no memcached figure', () => {
    const low = plan.find((s) => s.workload === 'low-memory')!;
    expect(low.memoryToData).toBe(0.25);
    expect(low.peerSkip).toMatch(/memcached is a cache/);
    // It reads the key set the suite's first load wrote, with the same connections and key range.
    expect([flag(low, 'first-connection'), flag(low, 'clients'), flag(low, 'keys')]).toEqual([flag(plan[0]!, 'first-connection'), flag(plan[0]!, 'clients'), flag(plan[0]!, 'keys')]);
    expect(plan.filter((s) => s.memoryToData !== undefined)).toEqual([low]);
  });

  it('every group its own key numbers: a run reads the keys its own load wrote, and no two groups share a connection range', () => {
    for (const t of [small, large, biggest]) {
      const scenarios = planScenarios('canonical-tables', t, {});
      const ranges = new Map<number, number>();
      for (const s of scenarios) {
        const first = Number(flag(s, 'first-connection'));
        const clients = Number(flag(s, 'clients'));
        expect(ranges.get(first) ?? clients).toBe(clients);
        ranges.set(first, clients);
      }
      const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
      sorted.forEach(([first, clients], i) => {
        if (i + 1 < sorted.length) expect(first + clients).toBeLessThanOrEqual(sorted[i + 1]![0]);
      });
      const [lastFirst, lastClients] = sorted.at(-1)!;
      expect(lastFirst + lastClients).toBeLessThanOrEqual(CANONICAL_KEY_SPACE_CONNECTIONS);
      // Every run that reads follows a load of its own group with the same clients and keys (pure insert starts from none).
      scenarios.forEach((s, i) => {
        if (s.workload === 'canonical-load' || s.workload === 'pure-insert') return;
        const load = scenarios.slice(0, i).reverse().find((l) => l.workload === 'canonical-load' && flag(l, 'first-connection') === flag(s, 'first-connection'));
        expect(load && flag(load, 'keys')).toBe(flag(s, 'keys'));
      });
    }
  });

  it('connection levels are bounded by the type', () => {
    const levels = (t: InstanceTypeRow) => planScenarios('canonical-tables', t, {}).filter((s) => s.workload === 'canonical').map((s) => s.connections);
    expect(levels(small)).toEqual([16, 64, 256, 1024]);
    expect(levels({ ...small, maxConnections: 300 })).toEqual([16, 64, 256]);
  });
});

describe('canonical-durability', () => {
  it('a load, then the canonical mix over RESP at appendfsync always and everysec, beside Redis', () => {
    const plan = planScenarios('canonical-durability', small, {});
    expect(peerOf('canonical-durability')).toBe('redis');
    expect(plan.map((s) => [s.mode, s.workload, s.fsync])).toEqual([
      ['memtier', 'load', undefined],
      ['memtier', 'durability-always', 'always'],
      ['memtier', 'durability-everysec', 'everysec'],
    ]);
    expect(plan[1]!.flags.filter((f) => f.startsWith('--command'))).toEqual(['--command=DEL __key__', '--command-ratio=1', '--command=SET __key__ __data__', '--command-ratio=12', '--command=GET __key__', '--command-ratio=64']);
  });
});

describe('the report', () => {
  it('runs the new suites after the ones earlier reports published', () => {
    expect(STANDARD_SUITES).toEqual(['memtier-standard', 'ycsb-standard', 'canonical', 'encryption-overhead', 'memtier-matrix', 'canonical-tables', 'canonical-durability']);
  });

  it.skipIf(!fs.existsSync(BENCH))("basalt-bench's own parser takes every scenario's flags (run against a closed port: a connect error, never a flag error)", () => {
    const suites = ['memtier-matrix', 'canonical-tables', 'canonical-durability'] as const;
    const scenarios = suites.flatMap((suite) => planScenarios(suite, large, {}));
    // One of each mode and shape is enough: the matrix's rows differ only in numbers.
    const distinct = [...new Map(scenarios.map((s) => [`${s.mode}/${s.workload}/${s.pipeline}`, s])).values()];
    for (const s of distinct) {
      const args = [...(s.mode === 'canonical' ? ['canonical'] : []), ...s.flags, '--server=127.0.0.1', '--port=1', '--timeout=1'];
      let failure = '';
      try {
        execFileSync(BENCH, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (error) {
        failure = String((error as { stderr?: string }).stderr ?? error);
      }
      // Nothing listens on port 1: the run fails to connect (exit 1), never on a flag (exit 2 with a usage message).
      expect(failure, `${s.name}: ${failure}`).not.toMatch(/error: (unexpected|invalid|unknown)|must be|is not a number|Usage/i);
      expect(failure, s.name).toMatch(/refused|connect/i);
    }
  });
});
