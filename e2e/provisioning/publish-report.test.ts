// The per-type report pipeline, run by hand to publish docs/benchmarks/<type>.md (skipped
// unless BASALT_PUBLISH_REPORTS names the types, e.g. kv.standard.small,kv.standard.large):
// for each type, a fresh instance through the API, the standard suites through the API and the
// real worker (each beside its peer in the same run), the report rendered from the stored runs
// by renderBenchmarkReport, the instance deleted. Nothing is written into a table by hand.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderBenchmarkReport, type Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';

const TYPES = (process.env.BASALT_PUBLISH_REPORTS ?? '').split(',').map((t) => t.trim()).filter(Boolean);
// ycsb-standard first, on the empty engine: its memory:data ratios are of the engine's whole data.
const SUITES = ['ycsb-standard', 'memtier-standard', 'canonical'] as const;
const ROOT = path.resolve(import.meta.dirname, '../..');

let platform: ProvisioningPlatform;

describe.skipIf(TYPES.length === 0)('publish per-type benchmark reports', () => {
  beforeAll(async () => {
    platform = await startProvisioningPlatform('prov_publish');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  const loads: number[] = [];
  const sampleLoad = setInterval(() => loads.push(os.loadavg()[0]!), 5_000);
  afterAll(() => clearInterval(sampleLoad));

  for (const type of TYPES) {
    test(type, { timeout: 1_800_000 }, async () => {
      const project = platform.projectId;
      const started = new Date();
      loads.length = 0;
      const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
        params: { path: { project } },
        body: { name: `report-${type.replace(/\./g, '-')}`, instance_type: type, region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
      });
      expect(response.status).toBe(202);
      const instance = data!.instance.id;
      await platform.waitForStatus(instance, ['running'], 300_000);
      const runs: Schemas['BenchmarkDto'][] = [];
      for (const workload of SUITES) {
        const asked = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', { params: { path: { project, instance } }, body: { workload } });
        expect(asked.response.status).toBe(202);
        const operation = await platform.waitForOperation(asked.data!.operation.id, 1_200_000);
        expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
        const run = await platform.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', { params: { path: { project, instance, benchmark: asked.data!.benchmark.id } } });
        runs.push(run.data!);
      }
      const { data: types } = await platform.client.GET('/v1/instance-types');
      const row = types!.items.find((t) => t.id === type)!;
      const cpu = os.cpus();
      const load = loads.length ? `1-minute load average sampled every 5 s during the runs: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} (mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(2)}) on ${cpu.length} cores; other engineers were building and testing on the same cores` : 'not sampled';
      const markdown = renderBenchmarkReport(
        {
          instanceType: type,
          typeSize: `${row.vcpu} vCPU, ${row.memory_gib} GiB`,
          date: started.toISOString(),
          host: `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Linux ${os.release()}`,
          load,
          commit: execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
        },
        runs,
      );
      fs.mkdirSync(path.join(ROOT, 'docs', 'benchmarks'), { recursive: true });
      fs.writeFileSync(path.join(ROOT, 'docs', 'benchmarks', `${type}.md`), markdown);
      const deleted = await platform.client.DELETE('/v1/projects/{project}/instances/{instance}', { params: { path: { project, instance } } });
      expect(deleted.response.status).toBe(202);
      await platform.waitForStatus(instance, ['deleted'], 300_000);
    });
  }
});
