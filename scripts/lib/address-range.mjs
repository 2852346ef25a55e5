// One range of region `local`'s address pool per test process on this host. Each test stack
// has a database of its own and so an allocator of its own; two of them running at once would
// both hand out the pool's first address. A process leases a /24 of the pool here (a directory
// per range, made atomically, holding the holder's pid) and gives it to every worker it starts
// as BASALT_ADDRESS_RANGE, so stacks that run side by side never share an address. `npm start`
// takes no lease: it allocates from the bottom of the whole pool, below every leased range.
import os from 'node:os';
import path from 'node:path';
import { releaseOnExit, takeLease } from './lease.mjs';
import { localNetwork } from './local-network.mjs';

// BASALT_ADDRESS_LEASES: another directory of leases (address-range.test.ts's own, so that no
// neighbouring test process takes a range the test frees).
const LEASES = process.env.BASALT_ADDRESS_LEASES || path.join(os.tmpdir(), 'basalt-address-ranges');
// /24s 10.77.64.0 .. 10.77.253.0: the bottom 64 stay for `npm start`'s instances, the top two
// for its benchmark clients (taken from the top of the pool down) and the addresses a test
// picks by hand below them (recheck-report's client).
const FIRST = 64;
const LAST = 253;

let held;

/** This process's range (a CIDR), leased on first use and given back when the process exits. */
export function leaseAddressRange() {
  if (held) return held;
  // Start at a place that depends on the pid, so processes starting together rarely race for one.
  const span = LAST - FIRST + 1;
  const start = process.pid % span;
  for (let i = 0; i < span; i++) {
    held = takeRange(FIRST + ((start + i) % span));
    if (held) return held;
  }
  throw new Error(`leaseAddressRange: every range of ${localNetwork().pool} is leased (${LEASES})`);
}

/** The /24 whose third octet is `third`, if no live process holds it; held until this process exits. */
export function takeRange(third) {
  const { pool } = localNetwork();
  const [base, bits] = pool.split('/');
  if (Number(bits) !== 16) throw new Error(`address ranges: the pool ${pool} is not a /16`);
  const [a, b] = base.split('.');
  const dir = path.join(LEASES, String(third));
  if (!takeLease(dir)) return undefined;
  releaseOnExit(dir);
  return `${a}.${b}.${third}.0/24`;
}
