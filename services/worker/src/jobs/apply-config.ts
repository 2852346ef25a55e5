// apply-users / apply-allowlist: PostgreSQL holds the desired users and allowlist; the
// live-config playbook renders them and the engine reloads them without a restart.
import type { ApplyAllowlistJob, ApplyUsersJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { checkEndpoints, deployEngine } from '../engine-deploy.js';
import { requireNodes } from './nodes.js';
import { applyInstanceFirewall } from '../firewall/instance-firewall.js';

export function applyConfig(ctx: JobContext, payload: ApplyUsersJob | ApplyAllowlistJob, what: 'users' | 'allowlist'): Promise<Outcome> {
  return runOperation(ctx, payload, {
    kind: what === 'users' ? 'apply_users' : 'apply_allowlist',
    work: async ({ instance, region, run }) => {
      if (!ctx.engineFeatures.has(what)) {
        await run.event('notice', null, `the deployed engine does not support ${what} yet; they are kept in PostgreSQL for the next deploy`);
      }
      const nodes = requireNodes(instance, 'load');
      // The host's network layer admits what the engine will: the allowlist as PostgreSQL holds it.
      if (what === 'allowlist') await applyInstanceFirewall(ctx, instance.id, region);
      await deployEngine(ctx, run, instance, region, nodes, 'live-config.yml');
      // The instance's status and fault are not this job's (operation-kinds.ts): a failed
      // modify's `error` stays until a modify or restart succeeds.
      await checkEndpoints(ctx, run, instance, region, nodes);
    },
  });
}
