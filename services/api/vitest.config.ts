import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/address-range.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Each file starts its own API process on its own database.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
