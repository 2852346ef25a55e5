// The host side of region `local`'s network (bridge, gateway address, the pool's route of
// last resort), set up before anything can connect to a pool address. The worker runs the
// same script again at start; infra/terraform/modules/local/network.json defines the network.
import path from 'node:path';
import { ROOT } from '../lib/paths.mjs';
import { run, tail } from '../lib/proc.mjs';
import { localNetwork } from '../lib/local-network.mjs';

export const HOST_NETWORK_SCRIPT = path.join(ROOT, 'infra', 'terraform', 'modules', 'local', 'scripts', 'host-network.sh');

export async function hostNetwork() {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    return 'skipped: not root on Linux (region local uses process VMs on loopback, no bridge)';
  }
  const net = localNetwork();
  const env = { PATH: process.env.PATH, VM_BRIDGE: net.bridge, VM_GATEWAY: net.gateway, VM_PREFIX_LENGTH: String(net.prefixLength) };
  const r = run(HOST_NETWORK_SCRIPT, [], { env });
  if (r.code !== 0) throw new Error(`region local's host network could not be set up: ${tail(r.out, 3)}`);
  return r.stdout.trim();
}
