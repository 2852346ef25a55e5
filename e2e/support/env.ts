// What the test runner (scripts/test.mjs) hands every e2e file, checked once with a clear message.
import path from 'node:path';

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the e2e tests through \`npm test\` (scripts/test.mjs)`);
  return value;
}

export const ROOT = process.env.BASALT_ROOT ?? path.resolve(import.meta.dirname, '..', '..');
