// The instance's infrastructure through Terraform: variables rendered from the instance,
// state in the instance's workspace, nodes read back from the outputs.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { InstanceNode, InstanceRow, RegionRow } from '@basalt/db';
import type { JobContext } from './context.js';
import { RECALL_NOTHING, type OperationRun } from './operation.js';
import { StepError } from './errors.js';
import { childEnv } from './child-env.js';
import { regionSsh } from './ssh.js';
import { poolNetwork } from './ipam.js';
import type { VmSize } from './engine-settings.js';
import {
  terraformApply,
  terraformDestroy,
  terraformInit,
  terraformOutput,
  terraformStateRecover,
  terraformWorkspaceDelete,
  terraformWorkspaceSelect,
  type TerraformContext,
  type TerraformMessage,
} from './terraform/terraform.js';

/** A node as the stack and the engine role see it (its role and status are the row's business). */
export type Node = InstanceNode;

const RETRY = { attempts: 6, baseDelayMs: 500 };

export function terraformContext(ctx: JobContext, instanceId: string): TerraformContext {
  return {
    stackDir: ctx.config.stackDir,
    dataDir: path.join(ctx.config.terraformDir, instanceId),
    workspace: instanceId,
    stateUrl: ctx.config.databaseUrl,
    stateSchema: ctx.config.stateSchema,
    env: childEnv(),
  };
}

/** Writes the stack's variables for the instance and returns the file. */
async function writeVars(ctx: JobContext, instance: InstanceRow, region: RegionRow, size: VmSize, addresses: string[]) {
  const tf = terraformContext(ctx, instance.id);
  await fs.mkdir(tf.dataDir, { recursive: true });
  const ssh = await regionSsh(ctx.config.sshDir, region.id);
  const network = poolNetwork(region.addressPool);
  const vars = {
    instance_id: instance.id,
    region: region.id,
    node_count: addresses.length,
    vm_size: size,
    disk_gb: instance.diskGib,
    addresses,
    local: {
      vm_kind: ctx.config.vmKind,
      vms_dir: ctx.config.vmsDir,
      image_dir: ctx.config.imageDir,
      bridge: ctx.config.bridge,
      gateway: network.gateway,
      prefix_length: network.prefixLength,
      ssh_public_key_file: ssh.publicKeyFile,
      known_hosts_file: ssh.knownHostsFile,
    },
  };
  const file = path.join(tf.dataDir, 'instance.tfvars.json');
  await fs.writeFile(file, JSON.stringify(vars, null, 2));
  return { tf, file };
}

/** Progress lines of `apply -json` that say something to a person watching. */
function relay(run: OperationRun<never>, step: string) {
  return (message: TerraformMessage) => {
    if (['apply_start', 'apply_complete', 'apply_errored', 'provision_errored', 'change_summary'].includes(message.type)) {
      void run.event('terraform', step, message['@message']).catch(() => {});
    }
  };
}

// The pg backend takes one global lock to create a workspace, so this worker creates
// them one at a time; other workers' runs meet the lock and are tried again (RETRY).
let workspaceQueue: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = workspaceQueue.then(work, work);
  workspaceQueue = next.catch(() => {});
  return next;
}

async function initWorkspace(run: OperationRun<'terraform_init'>, tf: TerraformContext): Promise<void> {
  await run.step('terraform_init', () => readyWorkspace(run, tf), RETRY);
}

/** The working dir's init and the instance's workspace (and a state an earlier run could not save). */
function readyWorkspace(run: OperationRun<never>, tf: TerraformContext): Promise<void> {
  return oneAtATime(async () => {
    await terraformInit(tf);
    await terraformWorkspaceSelect(tf);
    if (await terraformStateRecover(tf)) await run.event('terraform', 'terraform_init', 'pushed the state an earlier run could not save');
  });
}

export async function applyStack(
  ctx: JobContext,
  run: OperationRun<'terraform_init' | 'terraform_apply'>,
  instance: InstanceRow,
  region: RegionRow,
  size: VmSize,
  addresses: string[],
  /** Nodes whose VMs are made again from scratch (a failed primary rebuilt as a replica). */
  rebuild: string[] = [],
  /** Only these nodes' limits and disk (a standard instance's disk grown node by node); all when absent. */
  only?: string[],
): Promise<Node[]> {
  if (region.target !== 'local') {
    throw new StepError('terraform_apply', `region ${region.id} uses target ${region.target}, which this worker does not drive`);
  }
  const { tf, file } = await writeVars(ctx, instance, region, size, addresses);
  const key = (only ?? []).join(',');
  if (run.willSkip('terraform_apply', key)) {
    // The apply an earlier attempt finished is not run again; its outputs are read through
    // the backend, which needs the working dir's init (it changes nothing outside that dir).
    await readyWorkspace(run, tf).catch((error: Error) => {
      throw new StepError('terraform_init', error.message);
    });
  } else {
    await initWorkspace(run, tf);
  }
  const replace = rebuild.map((name) => `module.local.terraform_data.this[${JSON.stringify(name)}]`);
  const targets = (only ?? []).map((name) => `module.local.terraform_data.disk[${JSON.stringify(name)}]`);
  // One node's disk (only) is a run of its own: a retry resumes past the nodes it finished.
  await run.step('terraform_apply', async () => void (await terraformApply(tf, file, relay(run, 'terraform_apply'), replace, targets)), RETRY, { key, recall: RECALL_NOTHING });
  const outputs = await terraformOutput(tf);
  const nodes = outputs.nodes;
  if (!Array.isArray(nodes) || nodes.length !== addresses.length) {
    throw new StepError('terraform_apply', `the stack returned ${JSON.stringify(nodes)} instead of ${addresses.length} nodes`);
  }
  // A process VM listens on a loopback twin of its address: keep the pool address too. A node
  // keeps the role the row gives it (a failover may have made another node the primary); a
  // new one is the primary if it is the first, else a replica.
  const recorded = new Map(instance.nodes.map((node) => [node.name, node]));
  return (nodes as Pick<Node, 'name' | 'private_ip' | 'public_ip' | 'ssh_user' | 'data_dir'>[]).map((node, index) => ({
    ...node,
    allocated_ip: addresses[index]!,
    role: recorded.get(node.name)?.role ?? (index === 0 ? 'primary' : 'replica'),
    status: recorded.get(node.name)?.status ?? 'creating',
    lag_bytes: null,
  }));
}

export async function destroyStack(
  ctx: JobContext,
  run: OperationRun<'terraform_init' | 'terraform_destroy'>,
  instance: InstanceRow,
  region: RegionRow,
  size: VmSize,
  addresses: string[],
): Promise<void> {
  const { tf, file } = await writeVars(ctx, instance, region, size, addresses);
  // A destroy an earlier attempt finished deleted the workspace: an init would make it again.
  if (!run.willSkip('terraform_destroy')) await initWorkspace(run, tf);
  await run.step('terraform_destroy', async () => {
    await terraformDestroy(tf, file, relay(run, 'terraform_destroy'));
    await oneAtATime(() => terraformWorkspaceDelete(tf));
  }, RETRY, { recall: RECALL_NOTHING });
  await fs.rm(tf.dataDir, { recursive: true, force: true });
}
