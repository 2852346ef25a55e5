import type { InstanceRow } from '@basalt/db';
import { describe, expect, it } from 'vitest';
import type { JobContext } from '../context.js';
import { emptyReportInstance } from './empty-instance.js';

describe('emptyReportInstance', () => {
  it("refuses any instance but the report's own temporary one, before it connects anywhere", async () => {
    // A context that throws on any use: the refusal must come before the worker reads users or connects.
    const ctx = new Proxy({}, { get: () => { throw new Error('context used'); } }) as JobContext;
    const customer = { id: 'i-1', tags: { team: 'x' }, endpoints: [{ host: '127.0.0.1', port: 6379 }] } as unknown as InstanceRow;
    await expect(emptyReportInstance(ctx, 'run_suites', customer, 'r-1')).rejects.toThrow("is not report r-1's temporary instance");
    const otherReport = { ...customer, tags: { benchmark_report: 'r-2' } } as unknown as InstanceRow;
    await expect(emptyReportInstance(ctx, 'run_suites', otherReport, 'r-1')).rejects.toThrow('is not report r-1');
  });
});
