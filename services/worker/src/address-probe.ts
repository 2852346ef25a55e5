// Whether an address is already taken on this host's bridge. The pool belongs to one
// control plane, but several (another database: a second `npm start`, a test run) can
// share this host: an address that already answers is skipped, as a cloud skips an IP
// that something else holds in the subnet. This is the last check after the control
// plane's own records (live instances, VM directories here); it never leaves the host.
import net from 'node:net';
import { kernelRoute, requireHostRoute, type RouteLookup } from './host-route.js';

export interface ProbeOptions {
  /** The project bridge: a pool address is probed only when the kernel routes it there. */
  bridge: string;
  timeoutMs?: number;
  routeOf?: RouteLookup;
  connect?: (options: net.NetConnectOpts) => net.Socket;
}

/**
 * Something answers at ip:port: a connection, or — on the bridge, where only a live host
 * can refuse — a refusal. On loopback every address refuses, so there only a connection counts.
 * Throws UnroutedAddressError, without connecting, for an address that would leave the host.
 */
export async function addressAnswers(ip: string, port: number, options: ProbeOptions): Promise<boolean> {
  await requireHostRoute(ip, options.bridge, options.routeOf ?? kernelRoute);
  const connect = options.connect ?? net.connect;
  const refusalCounts = !ip.startsWith('127.');
  return new Promise((resolve) => {
    const socket = connect({ host: ip, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(options.timeoutMs ?? 300, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', (error: NodeJS.ErrnoException) => done(refusalCounts && error.code === 'ECONNREFUSED'));
  });
}
