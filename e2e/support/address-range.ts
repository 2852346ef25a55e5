// Every worker this test process starts hands out addresses from one range of the pool that no
// other process on this host holds (scripts/lib/address-range.mjs), so files run side by side.
import path from 'node:path';
import { ROOT } from './env.js';

const { leaseAddressRange } = await import(path.join(ROOT, 'scripts', 'lib', 'address-range.mjs'));
process.env.BASALT_ADDRESS_RANGE ??= leaseAddressRange();
