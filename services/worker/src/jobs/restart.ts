// restart: the engine restarts on every node (systemd), data stays on disk.
import type { RestartJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { checkEndpoints, deployEngine } from '../engine-deploy.js';
import { requireNodes } from './nodes.js';

export function restart(ctx: JobContext, payload: RestartJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    steps: ['ansible_restart', 'health_check'],
    failureStatus: 'error',
    work: async ({ instance, region, run }) => {
      const nodes = requireNodes(instance, 'load');
      await deployEngine(ctx, run, instance, region, nodes, 'restart.yml');
      await checkEndpoints(ctx, run, instance, region, nodes);
      await ctx.repo.updateInstance(instance.id, { status: 'running', health: 'healthy', fault: null });
    },
  });
}
