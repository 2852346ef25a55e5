import { defineConfig } from 'vitest/config';
import { ALONE_FILES, ALONE_LANES, E2E_GROUPS, type E2eGroup } from './support/e2e-groups.js';

// Whole-system tests start real servers (PostgreSQL databases, the API, engines, VMs) on a
// 2-core machine. The runner (scripts/lib/suites.mjs) runs them in groups
// (support/e2e-groups.ts): `parallel`, two files at once (each its own stack, database and
// range of the address pool), then the lanes `ha` and `load` beside each other, one file at a
// time each. Without a group (`npx vitest run <file>`) every file runs, one at a time.
const group = process.env.BASALT_E2E_GROUP as E2eGroup | undefined;
if (group && !E2E_GROUPS.includes(group)) throw new Error(`BASALT_E2E_GROUP must be one of ${E2E_GROUPS.join(', ')}, not ${group}`);
const lane = group && group !== 'parallel' ? ALONE_LANES[group] : undefined;

export default defineConfig({
  test: {
    include: lane ? [...lane] : ['**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(group === 'parallel' ? ALONE_FILES : [])],
    fileParallelism: group === 'parallel',
    maxWorkers: group === 'parallel' ? 2 : 1,
    globalSetup: ['support/typecheck.ts'],
    setupFiles: ['support/address-range.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
