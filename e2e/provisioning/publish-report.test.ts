// Publishes docs/benchmarks/<type>.md, run by hand (skipped unless BASALT_PUBLISH_REPORTS names
// the types, e.g. kv.standard.small,kv.standard.large): for each type, the platform's own
// per-type report pipeline (POST /v1/instance-types/{id}/benchmarks as the administrator:
// every standard suite on a temporary instance, each beside its peer, rendered by the worker
// from the stored runs, the instance deleted), and the served report.json written to docs/ with
// what typeReportFiles makes of it (the markdown linking its SVG charts).
// browser/instance-types.test.ts checks the pipeline itself in every run of the suite.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { typeReportFiles, type TypeReportDocument } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';

const TYPES = (process.env.BASALT_PUBLISH_REPORTS ?? '').split(',').map((t) => t.trim()).filter(Boolean);
const ROOT = path.resolve(import.meta.dirname, '../..');

let platform: ProvisioningPlatform;

describe.skipIf(TYPES.length === 0)('publish per-type benchmark reports', () => {
  beforeAll(async () => {
    platform = await startProvisioningPlatform('prov_publish');
  });
  afterAll(async () => {
    await platform?.stop();
  });

  for (const type of TYPES) {
    test(type, { timeout: 3_600_000 }, async () => {
      const asked = await platform.client.POST('/v1/instance-types/{id}/benchmarks', { params: { path: { id: type } }, body: {} });
      expect(asked.response.status, JSON.stringify(asked.error)).toBe(202);
      const operation = await platform.waitForOperation(asked.data!.operation.id, 3_500_000).catch(() => undefined);
      const report = (await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}', { params: { path: { id: type, report: asked.data!.report.id } } })).data!.report;
      expect(report.status, `${JSON.stringify(operation?.error)}\n${platform.workerLog().slice(-3000)}`).toBe('succeeded');
      const document = await platform.client.GET('/v1/instance-types/{id}/benchmarks/{report}/report.json', { params: { path: { id: type, report: report.id } } });
      expect(document.response.status).toBe(200);
      fs.mkdirSync(path.join(ROOT, 'docs', 'benchmarks'), { recursive: true });
      for (const file of typeReportFiles(document.data as unknown as TypeReportDocument)) fs.writeFileSync(path.join(ROOT, 'docs', 'benchmarks', file.name), file.content);
    });
  }
});
