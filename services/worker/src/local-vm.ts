// What the failover of a `standard` instance asks of region `local` beyond Terraform (issue
// 15), through the local module's own scripts, as a cloud's API is asked: move a floating
// address onto a node's VM or off it (vm-address.sh, inside the VM's network namespace, with a
// gratuitous ARP), and fence a VM by killing it (vm-fence.sh). Both enter from this host, so
// they work on a node the bridge no longer reaches.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JobContext } from './context.js';
import type { Node } from './stack.js';
import { childEnv } from './child-env.js';
import { runCommand } from './process.js';
import { poolNetwork } from './ipam.js';

const TIMEOUT_MS = 20_000;

function scriptsDir(ctx: JobContext): string {
  return path.resolve(ctx.config.stackDir, '..', 'modules', 'local', 'scripts');
}

async function runScript(ctx: JobContext, node: Node, script: string, args: string[]): Promise<void> {
  if (ctx.config.vmKind !== 'nspawn') throw new Error(`${script}: region local runs process VMs here, which have no address of their own to move`);
  const result = await runCommand(path.join(scriptsDir(ctx), script), args, {
    env: { ...childEnv(), VM_DIR: path.join(ctx.config.vmsDir, node.name), VM_BRIDGE: ctx.config.bridge },
    timeoutMs: TIMEOUT_MS,
  });
  if (result.exitCode !== 0) {
    throw new Error(`${script} ${args.join(' ')} on ${node.name} failed (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}): ${result.stderr.trim().slice(-500)}`);
  }
}

/** Puts the floating `address` of the region's pool on the node's VM. */
export function assignAddress(ctx: JobContext, node: Node, address: string, pool: string): Promise<void> {
  return runScript(ctx, node, 'vm-address.sh', ['add', `${address}/${poolNetwork(pool).prefixLength}`]);
}

/** Takes the floating `address` off the node's VM (nothing to do when it does not hold it). */
export function unassignAddress(ctx: JobContext, node: Node, address: string, pool: string): Promise<void> {
  return runScript(ctx, node, 'vm-address.sh', ['del', `${address}/${poolNetwork(pool).prefixLength}`]);
}

/** Kills the node's VM: it takes no write again until the control plane rebuilds it. */
export function fenceVm(ctx: JobContext, node: Node): Promise<void> {
  return runScript(ctx, node, 'vm-fence.sh', []);
}

/**
 * Makes sure the fenced VM's network is gone from this host before its node is made again at
 * the same place (the same VM directory gives the same machine name and veth, `vb-<machine>`).
 * A killed VM's namespace can outlive it for minutes: sockets of its dead processes that could
 * not say goodbye (a VM cut off the bridge) keep retransmitting and hold the namespace, and with
 * it the veth. After a short wait the host side of that veth is deleted, which ends the pair.
 */
export async function clearFencedVmNetwork(ctx: JobContext, node: Node, waitMs = 5_000): Promise<void> {
  if (ctx.config.vmKind !== 'nspawn') return;
  const machine = (await fs.readFile(path.join(ctx.config.vmsDir, node.name, 'machine'), 'utf8').catch(() => '')).trim();
  if (!/^bvm[0-9a-f]{8}$/.test(machine)) return;
  const veth = `vb-${machine}`;
  const present = () => fs.access(`/sys/class/net/${veth}`).then(() => true, () => false);
  const deadline = Date.now() + waitMs;
  while ((await present()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  if (!(await present())) return;
  ctx.log(`${node.name}: its fenced VM's veth ${veth} is still here; deleting it`);
  const result = await runCommand('ip', ['link', 'del', veth], { env: childEnv(), timeoutMs: 5_000 });
  if (result.exitCode !== 0 && (await present())) throw new Error(`could not delete ${veth} of ${node.name}'s fenced VM: ${result.stderr.trim()}`);
}
