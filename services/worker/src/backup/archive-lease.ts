// One writer of an instance's archive at a time: the archiver's pass and a backup job both
// store segments and mark them archived on the node, which must happen once and in order.
import type { Lease } from '@basalt/db';
import type { JobContext } from '../context.js';

export const archiveLeaseKey = (instanceId: string) => `basalt-archive:${instanceId}`;

/** Waits up to `timeoutMs` for the instance's archive lease (an archiver pass takes a second or two). */
export async function takeArchiveLease(ctx: JobContext, instanceId: string, timeoutMs = 60_000): Promise<Lease | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lease = await ctx.leases.tryLease(archiveLeaseKey(instanceId));
    if (lease || Date.now() > deadline) return lease;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
