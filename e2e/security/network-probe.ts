// The tenant-network test's view from inside the bridge: a client namespace of the test's own
// (one veth on basalt0, an address at the top of this process's leased range, which the
// allocator hands out from the bottom), and TCP probes run in any network namespace — a
// client's or a VM's (its init's /proc/<pid>/ns/net) — through nsenter, so the packets leave
// exactly where a VM's or a client's would.
import { execFile, execFileSync } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface ClientNamespace {
  name: string;
  address: string;
  /** For nsenter --net. */
  path: string;
  remove(): void;
}

/** A namespace on basalt0 with `address` in the pool's /16 and no other route. */
export function createClientNamespace(tag: string, address: string): ClientNamespace {
  const name = `basalt-t-${tag}`;
  const host = `btc${tag}`.slice(0, 15);
  const remove = () => {
    for (const args of [['netns', 'del', name], ['link', 'del', host]]) {
      try {
        execFileSync('ip', args, { stdio: 'ignore' });
      } catch {
        // Not there: the state wanted.
      }
    }
  };
  remove();
  const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ip('netns', 'add', name);
  ip('link', 'add', host, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name);
  ip('link', 'set', host, 'master', 'basalt0', 'up');
  ip('-n', name, 'addr', 'add', `${address}/16`, 'dev', 'eth0');
  ip('-n', name, 'link', 'set', 'eth0', 'up');
  ip('-n', name, 'link', 'set', 'lo', 'up');
  return { name, address, path: `/run/netns/${name}`, remove };
}

/** The address `offset` below the top of a /24 range (10.77.70.0/24, 4 -> 10.77.70.250). */
export function topOfRange(range: string, offset: number): string {
  const [a, b, c] = range.split('/')[0]!.split('.');
  return `${a}.${b}.${c}.${254 - offset}`;
}

/** Whether a TCP connection from inside `netnsPath` to host:port is made within `seconds`. */
export async function tcpConnects(netnsPath: string, host: string, port: number, seconds = 2): Promise<boolean> {
  try {
    await execFileAsync('nsenter', [`--net=${netnsPath}`, 'timeout', String(seconds), 'bash', '-c', 'exec 3<>"/dev/tcp/$0/$1"', host, String(port)], { timeout: (seconds + 5) * 1000 });
    return true;
  } catch {
    return false;
  }
}

/** A command run inside `netnsPath` (redis-cli as a client there): stdout, or the error text. */
export async function inNamespace(netnsPath: string, command: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync('nsenter', [`--net=${netnsPath}`, ...command], { encoding: 'utf8', timeout: 15_000 });
    return stdout.trim();
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    return `failed: ${(failure.stdout ?? '').trim()} ${(failure.stderr ?? failure.message).trim()}`;
  }
}

/** A listener on every host address that counts the connections it gets. */
export async function countingListener(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The host's IPv4 addresses other than loopback and the pool's (its other interfaces). */
export function otherHostAddresses(): string[] {
  return execFileSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' })
    .split('\n')
    .flatMap((line) => /\binet (\d+\.\d+\.\d+\.\d+)\//.exec(line)?.[1] ?? [])
    .filter((address) => !address.startsWith('127.') && !address.startsWith('10.77.'));
}
