import { defineConfig } from 'vitest/config';

// Measurements for the notes, not tests of `npm test` (whose e2e config takes `*.test.ts` only):
// `cd e2e && npx vitest run --config bench/vitest.config.ts [file]`, one file at a time.
export default defineConfig({
  test: {
    include: ['bench/**/*.run.ts'],
    fileParallelism: false,
    maxWorkers: 1,
    setupFiles: ['support/address-range.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 300_000,
  },
});
