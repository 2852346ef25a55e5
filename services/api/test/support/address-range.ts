// Every worker this test process starts hands out addresses from one range of the pool that no
// other process on this host holds (scripts/lib/address-range.mjs), so files run side by side.
import { fileURLToPath } from 'node:url';

const { leaseAddressRange } = await import(fileURLToPath(new URL('../../../../scripts/lib/address-range.mjs', import.meta.url)));
process.env.BASALT_ADDRESS_RANGE ??= leaseAddressRange();
