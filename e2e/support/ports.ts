// Loopback ports for servers a test starts: leased host-wide (scripts/lib/net.mjs), so files
// running side by side never start two listeners on one port.
import path from 'node:path';
import { ROOT } from './env.js';

const net = (await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'))) as { freePort(): Promise<number> };

export const freePort = (): Promise<number> => net.freePort();
