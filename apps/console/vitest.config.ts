import path from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// Component and unit tests. Browser flows against a running platform live in e2e/browser.
export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '.next/**'],
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./vitest.setup.ts'],
    // A render of a whole report page takes about a second alone, and several times that while
    // `npm test` runs the whole-system tests beside this suite (scripts/lib/suites.mjs).
    testTimeout: 30_000,
  },
})
