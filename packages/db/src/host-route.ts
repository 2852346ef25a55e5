// Where the kernel would send a packet for an address. The control plane (worker and API)
// connects to a pool address only when it goes out through the project bridge (or is
// loopback, where process VMs live): on a host without the bridge, a pool address (10.77.x)
// routes out of the machine by the default route, and something there may answer every address.
import { execFile } from 'node:child_process';

/** The device the kernel routes `ip` through, or undefined when there is no route. */
export type RouteLookup = (ip: string) => Promise<string | undefined>;

export const kernelRoute: RouteLookup = (ip) =>
  new Promise((resolve) => {
    execFile('ip', ['-o', 'route', 'get', ip], { env: { PATH: process.env.PATH }, timeout: 5_000 }, (error, stdout) => {
      resolve(error ? undefined : / dev (\S+)/.exec(stdout)?.[1]);
    });
  });

export class UnroutedAddressError extends Error {
  constructor(ip: string, device: string | undefined, bridge: string) {
    super(`refusing to connect to ${ip}: the kernel routes it ${device ? `through ${device}` : 'nowhere'}, not through the project bridge ${bridge}`);
    this.name = 'UnroutedAddressError';
  }
}

/** Resolves when a connection to `ip` stays on this host (loopback or the bridge); throws otherwise. */
export async function requireHostRoute(ip: string, bridge: string, routeOf: RouteLookup = kernelRoute): Promise<void> {
  if (ip.startsWith('127.')) return;
  const device = await routeOf(ip);
  if (device !== bridge) throw new UnroutedAddressError(ip, device, bridge);
}
