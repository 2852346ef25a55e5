// Vitest strips types without checking them: before any e2e file runs, the tests are checked
// against the generated API types and the packages they import, so a renamed field or a new
// union member fails here instead of passing as `undefined` at run time. In `npm test` the
// `parallel` group checks, and the lanes `ha` and `load`, which start after it, do not check
// the same files again (tsc costs ~30 CPU-seconds on a 2-core host that is never idle).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function typecheck(): void {
  const group = process.env.BASALT_E2E_GROUP;
  if (group === 'ha' || group === 'load') return;
  const e2e = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const tsc = path.join(e2e, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '--noEmit', '-p', path.join(e2e, 'tsconfig.json')], { stdio: 'inherit' });
}
