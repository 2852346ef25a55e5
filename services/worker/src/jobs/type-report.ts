// benchmark_report: a per-type benchmark report (issue 13). The temporary instance the API made
// in the platform's own project is provisioned, each asked suite runs on it through the
// benchmark job (each beside its peer), the report is rendered from the stored runs, and the
// instance is deleted — whether the suites succeeded or not. Every part is an operation of the
// instance run by its own handler (type-report/child-operations.ts), so a retry after a killed
// worker finishes what is left and the delete always comes last.
import type { TypeReportJob, TypeReportsRepository } from '@basalt/db';
import { operationLeaseKey, stepsOf, type StepName } from '@basalt/db';
import type { JobContext } from '../context.js';
import { faultOf, StepError } from '../errors.js';
import { OperationRun } from '../operation.js';
import { runLifecycle, runSuite, type RunHandler } from '../type-report/child-operations.js';
import { emptyReportInstance } from '../type-report/empty-instance.js';
import { LoadSampler, renderReport } from '../type-report/render.js';
import type { Outcome } from './run-operation.js';

export async function typeReport(ctx: JobContext, payload: TypeReportJob, handle: RunHandler): Promise<Outcome> {
  const lease = await ctx.leases.tryLease(operationLeaseKey(payload.operation_id));
  if (!lease) return 'busy';
  try {
    const operation = await ctx.repo.getOperation(payload.operation_id);
    if (!operation || operation.status === 'succeeded' || operation.status === 'failed') return 'skipped';
    const reports = ctx.repo.typeReports();
    const report = await reports.getForJob(payload.report_id);
    if (!report) {
      ctx.log(`[${operation.id}] no report ${payload.report_id}; job dropped`);
      return 'skipped';
    }
    const run = new OperationRun<StepName<'benchmark_report'>>(ctx.repo, operation.id, stepsOf('benchmark_report'), ctx.log);
    await run.start();
    await deleteLeftInstances(ctx, handle, reports, run);
    const startedAt = report.startedAt ?? new Date();
    await reports.update(report.id, { status: 'running', startedAt, finishedAt: null });
    const load = new LoadSampler();
    let failure: unknown;
    // Rendered and stored by an earlier attempt whose worker died after it (while deleting the
    // instance, or before it could mark the report): only the delete is left.
    const alreadyMade = report.markdown !== null;
    if (alreadyMade) {
      await run.event('notice', null, 'the report was made by an earlier attempt; what is left is deleting its temporary instance');
      for (const step of stepsOf('benchmark_report').steps.filter((name) => name !== 'delete_instance')) await run.step(step, async () => {});
    }
    try {
      if (!alreadyMade) {
        const instance = await ctx.repo.getInstance(payload.instance_id);
        if (!instance) throw new StepError('create_instance', `the report's instance ${payload.instance_id} does not exist`);
        const type = await ctx.catalog.getInstanceType(instance.instanceType);
        if (!type) throw new StepError('create_instance', `instance type ${instance.instanceType} does not exist`);
        if (instance.status === 'deleting' || instance.status === 'deleted') throw new StepError('create_instance', 'the temporary instance was deleted before the report was made');
        await run.step('create_instance', () => runLifecycle(ctx, handle, 'create_instance', instance, 'create'));
        const measured = await run.step('run_suites', async () => {
          const rows = [];
          for (const suite of report.suites) {
            await run.event('report_suite', 'run_suites', `suite ${rows.length + 1} of ${report.suites.length}: ${suite}`, { suite });
            const current = (await ctx.repo.getInstance(instance.id))!;
            // Each suite starts on an empty engine, as a rerun on a fresh instance does.
            rows.push(await runSuite(ctx, handle, 'run_suites', current, suite, () => emptyReportInstance(ctx, 'run_suites', current, report.id)));
          }
          return rows;
        });
        const made = await run.step('render_report', async () => renderReport(ctx, instance, type, measured, startedAt, load.describe()));
        await reports.update(report.id, made);
      }
    } catch (error) {
      failure = error;
    } finally {
      load.stop();
    }
    // However the report went, the temporary instance goes.
    try {
      const instance = await ctx.repo.getInstance(payload.instance_id);
      if (instance && instance.status !== 'deleted') await run.step('delete_instance', () => runLifecycle(ctx, handle, 'delete_instance', instance, 'delete'));
    } catch (error) {
      failure ??= error;
    }
    if (failure === undefined) {
      await settle(reports, report.id, 'succeeded');
      await run.succeed();
      return 'succeeded';
    }
    const step = failure instanceof StepError ? failure.step : 'create_instance';
    const fault = { ...faultOf(step, failure), operation_id: operation.id };
    ctx.log(`[${operation.id}] report of ${report.instanceType} failed at ${fault.step}: ${fault.message}`);
    await settle(reports, report.id, 'failed');
    await run.fail(fault);
    return 'failed';
  } finally {
    await lease.release();
  }
}

/**
 * The temporary instances of earlier reports whose delete failed: tried again here, so none
 * stays behind (they are in the platform's project, which no one can reach through the API).
 */
async function deleteLeftInstances(ctx: JobContext, handle: RunHandler, reports: TypeReportsRepository, run: OperationRun<never>): Promise<void> {
  for (const { reportId, instanceId } of await reports.listLeftInstances()) {
    const instance = await ctx.repo.getInstance(instanceId);
    if (!instance) continue;
    await run.event('notice', null, `deleting the temporary instance ${instanceId} that report ${reportId} left`);
    await runLifecycle(ctx, handle, 'delete_instance', instance, 'delete').catch((error: Error) => ctx.log(`[${run.operationId}] left instance ${instanceId}: ${error.message}`));
  }
}

/** The report's status, written before its operation says it finished (whoever waits reads it settled). */
async function settle(reports: TypeReportsRepository, id: string, status: 'succeeded' | 'failed'): Promise<void> {
  await reports.update(id, { status, finishedAt: new Date() });
}
