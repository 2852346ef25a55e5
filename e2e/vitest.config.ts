import { defineConfig } from 'vitest/config';

// Whole-system tests start real servers (PostgreSQL databases, the API, engines, VMs) on a
// 2-core machine: files run one at a time and get generous timeouts.
export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    fileParallelism: false,
    globalSetup: ['support/typecheck.ts'],
    setupFiles: ['support/address-range.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
