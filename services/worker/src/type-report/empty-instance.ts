// A per-type report measures each suite on an empty engine: the state a rerun of the report's
// commands on a fresh instance of the type starts from (the ±15% check of issue 13). Without
// it, memtier-standard measured an instance ycsb-standard had just filled, and its 4 KB reads
// came out 36-39% slower than on the fresh instance the rerun used.
import type { InstanceRow } from '@basalt/db';
import type { JobContext } from '../context.js';
import { benchmarkUser } from '../benchmark/client-target.js';
import { storedCaCertificate, type Endpoint } from '../engine-deploy.js';
import { StepError } from '../errors.js';
import { requireHostRoute } from '../host-route.js';
import { sendCommands } from '../resp.js';

/**
 * FLUSHALL on the report's temporary instance, as the report's own user. Refuses any other
 * instance: a customer's data is never the control plane's to delete.
 */
export async function emptyReportInstance(ctx: JobContext, step: string, instance: InstanceRow, reportId: string): Promise<void> {
  const tags = (instance.tags ?? {}) as Record<string, unknown>;
  if (tags.benchmark_report !== reportId) throw new StepError(step, `instance ${instance.id} is not report ${reportId}'s temporary instance; it is not emptied`);
  const endpoints = (Array.isArray(instance.endpoints) ? instance.endpoints : []) as Partial<Endpoint>[];
  const endpoint = endpoints.find((e) => typeof e.host === 'string' && typeof e.port === 'number');
  if (!endpoint) throw new StepError(step, 'the temporary instance has no endpoint');
  await requireHostRoute(endpoint.host!, ctx.config.bridge).catch((error: Error) => {
    throw new StepError(step, error.message);
  });
  const caPem = endpoint.tls ? storedCaCertificate(instance) : undefined;
  const user = await benchmarkUser(ctx, instance);
  const replies = await sendCommands(endpoint.host!, endpoint.port!, [['AUTH', user.username, user.password], ['FLUSHALL']], 60_000, caPem ? { caPem } : undefined);
  if (replies[0] !== '+OK' || replies[1] !== '+OK') throw new StepError(step, `FLUSHALL on the temporary instance: ${replies.join(' / ')}`);
}
