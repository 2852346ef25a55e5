import { defineConfig } from 'vitest/config';
import { SERIAL_FILES } from './support/serial-files.js';

// Whole-system tests start real servers (PostgreSQL databases, the API, engines, VMs) on a
// 2-core machine. The runner (scripts/lib/suites.mjs) runs them in two groups: `parallel`, two
// files at once (each its own stack, database and range of the address pool), then `serial`,
// the files that must have the host to themselves (support/serial-files.ts). Without a group
// (`npx vitest run <file>`) every file runs, one at a time.
const group = process.env.BASALT_E2E_GROUP;
if (group && group !== 'parallel' && group !== 'serial') throw new Error(`BASALT_E2E_GROUP must be parallel or serial, not ${group}`);

export default defineConfig({
  test: {
    include: group === 'serial' ? SERIAL_FILES : ['**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(group === 'parallel' ? SERIAL_FILES : [])],
    fileParallelism: group === 'parallel',
    maxWorkers: group === 'parallel' ? 2 : 1,
    globalSetup: ['support/typecheck.ts'],
    setupFiles: ['support/address-range.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
