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

export const STEPS = [
  ['debian packages', apt],
  // Before anything may connect to a pool address (tests, the worker's first job).
  ['host network', hostNetwork],
  ['terraform', terraform],
  ['ansible', ansible],
  ['python clients', pythonClients],
  ['api fuzzer', apiFuzzer],
  ['vm image', rootfs],
  ['npm dependencies', npmDeps],
  ['engine', engine],
  ['redis test suite', redisTests],
  ['terraform provider', provider],
  ['workspace builds', workspaceBuilds],
];

export async function bootstrap({ quiet = false } = {}) {
  const started = Date.now();
  for (const [name, step] of STEPS) {
    const t = Date.now();
    try {
      const status = await step();
      if (!quiet) console.log(`bootstrap: ${name.padEnd(19)} ${status} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    } catch (err) {
      console.error(`bootstrap: ${name.padEnd(19)} FAILED: ${err.message}`);
      throw new Error(`bootstrap step "${name}" failed`);
    }
  }
  if (!quiet) console.log(`bootstrap: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  bootstrap().catch(() => process.exit(1));
}
