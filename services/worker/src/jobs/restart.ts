// restart: the engine restarts on every node (systemd), data stays on disk. A standard
// instance rolls (issue 15): each replica restarts and catches up first, then a switchover
// hands the primary's place to a restarted replica (writes pause only for it), and the old
// primary restarts last, as a replica.
import type { RestartJob } from '@basalt/db';
import type { JobContext } from '../context.js';
import { runOperation, type Outcome } from './run-operation.js';
import { checkEndpoints, deployEngine } from '../engine-deploy.js';
import { requireNodes } from './nodes.js';
import { rollingDeploy } from '../failover/rolling-deploy.js';

export function restart(ctx: JobContext, payload: RestartJob): Promise<Outcome> {
  return runOperation(ctx, payload, {
    kind: 'restart',
    work: async ({ instance, region, run, write }) => {
      const nodes = requireNodes(instance, 'load');
      if (instance.architecture === 'standard') {
        const rolled = await rollingDeploy(ctx, run, instance, region, nodes, 'restart.yml');
        await checkEndpoints(ctx, run, instance, region, rolled);
        await write({ status: 'running', health: 'healthy', fault: null });
        return;
      }
      await deployEngine(ctx, run, instance, region, nodes, 'restart.yml');
      await checkEndpoints(ctx, run, instance, region, nodes);
      await write({ status: 'running', health: 'healthy', fault: null });
    },
  });
}
