// Whether an address is already taken on this host's bridge. The pool belongs to one
// control plane, but several (another database: a second `npm start`, a test run) can
// share this host: an address that already answers is skipped, as a cloud skips an IP
// that something else holds in the subnet.
import net from 'node:net';

/**
 * Something answers at ip:port: a connection, or — on the bridge, where only a live host
 * can refuse — a refusal. On loopback every address refuses, so there only a connection counts.
 */
export function addressAnswers(ip: string, port: number, timeoutMs = 300): Promise<boolean> {
  const refusalCounts = !ip.startsWith('127.');
  return new Promise((resolve) => {
    const socket = net.connect({ host: ip, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('connect', () => done(true));
    socket.on('error', (error: NodeJS.ErrnoException) => done(refusalCounts && error.code === 'ECONNREFUSED'));
  });
}
