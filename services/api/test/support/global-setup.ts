// The tests run the built API (`dist/main.js`, the real entry point); build it when it is missing
// or older than its sources, together with @basalt/db and @basalt/api-client that it and the tests use.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const apiRoot = fileURLToPath(new URL('../..', import.meta.url));
const dbRoot = join(apiRoot, '../../packages/db');
const clientRoot = join(apiRoot, '../../packages/api-client');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function stale(root: string, entry: string): boolean {
  const output = join(root, entry);
  return !existsSync(output) || statSync(output).mtimeMs < newestMtime(join(root, 'src'));
}

export default function setup(): void {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must point at a PostgreSQL superuser (the test runner sets it)');
  const tsc = join(apiRoot, '../../node_modules/typescript/bin/tsc');
  if (stale(dbRoot, 'dist/index.js')) execFileSync(process.execPath, [tsc, '-p', join(dbRoot, 'tsconfig.json')], { stdio: 'inherit' });
  if (stale(clientRoot, 'dist/index.js')) execFileSync(process.execPath, [join(clientRoot, 'node_modules/typescript/bin/tsc'), '-p', join(clientRoot, 'tsconfig.json')], { stdio: 'inherit' });
  if (stale(apiRoot, 'dist/main.js')) execFileSync(process.execPath, [tsc, '-p', join(apiRoot, 'tsconfig.build.json')], { stdio: 'inherit' });
  // Vitest strips types; check the tests' use of the typed client against the generated spec types.
  execFileSync(process.execPath, [tsc, '-p', join(apiRoot, 'tsconfig.test.json')], { stdio: 'inherit' });
}
