import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own API process on its own database.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
