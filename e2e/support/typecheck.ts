// Vitest strips types without checking them: before any e2e file runs, the tests are checked
// against the generated API types and the packages they import, so a renamed field or a new
// union member fails here instead of passing as `undefined` at run time.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function typecheck(): void {
  const e2e = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const tsc = path.join(e2e, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(e2e, 'tsconfig.json')], { stdio: 'inherit' });
}
