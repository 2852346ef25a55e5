// Builds of what the platform runs: the engine (cargo), the Terraform provider (go), and every
// npm workspace with a `build` script, in dependency order (packages, services, console).
import fs from 'node:fs';
import path from 'node:path';
import { BENCH_BIN, ENGINE_BIN, ENGINE_DIR, PROVIDER_DIR, PROVIDER_MIRROR, RDB_BIN, ROOT, TOOLS_BIN } from '../lib/paths.mjs';
import { run, runAsync, tail } from '../lib/proc.mjs';
import { hashInputs, stampMatches, writeStamp } from '../lib/stamp.mjs';
import { workspaces } from '../lib/workspaces.mjs';

export async function engine() {
  if (!fs.existsSync(path.join(ENGINE_DIR, 'Cargo.toml'))) return 'skipped: no engine/';
  // cargo is incremental on its own: a build with nothing changed takes a second.
  const r = await runAsync('cargo', ['build', '--release', '--workspace', '--bins'], { cwd: ENGINE_DIR });
  if (r.code !== 0) throw new Error(`cargo build --release in engine/ failed:\n${tail(r.out, 25)}`);
  // The worker runs all three (the engine on VMs, the load generator, basalt-rdb for RDB files).
  const missing = [ENGINE_BIN, BENCH_BIN, RDB_BIN].filter((bin) => !fs.existsSync(bin));
  if (missing.length) throw new Error(`cargo build --release in engine/ did not produce ${missing.map((bin) => path.relative(ROOT, bin)).join(', ')}`);
  return 'built';
}

export async function provider() {
  if (!fs.existsSync(path.join(PROVIDER_DIR, 'go.mod'))) return 'skipped: no apps/terraform-provider/';
  const bin = path.join(TOOLS_BIN, 'terraform-provider-basalt');
  // Every module the provider's tests need too (terraform-plugin-testing is imported by test
  // files only, so `go build` leaves it out): `go test` then runs with no registry in reach.
  const fetched = await runAsync('go', ['mod', 'download'], { cwd: PROVIDER_DIR });
  if (fetched.code !== 0) throw new Error(`go mod download for the Terraform provider failed:\n${tail(fetched.out)}`);
  const r = await runAsync('go', ['build', '-o', bin, '.'], { cwd: PROVIDER_DIR });
  if (r.code !== 0) throw new Error(`go build of the Terraform provider failed:\n${tail(r.out)}`);
  // Installed into the filesystem mirror this clone's terraformrc names, at the place the
  // provider itself reports for its address and version, so `terraform init` on a configuration
  // using basalt/basalt finds it with no registry.
  const where = run(bin, ['-mirror-path']);
  if (where.code !== 0) throw new Error(`terraform-provider-basalt -mirror-path failed:\n${tail(where.out)}`);
  const target = path.join(PROVIDER_MIRROR, where.stdout.trim());
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(bin, `${target}.tmp`);
  fs.chmodSync(`${target}.tmp`, 0o755);
  fs.renameSync(`${target}.tmp`, target);
  return `built, mirrored in ${path.relative(ROOT, PROVIDER_MIRROR)}`;
}

export async function workspaceBuilds() {
  const built = [];
  const lock = path.join(ROOT, 'package-lock.json');
  for (const ws of workspaces()) {
    if (!ws.scripts.build) continue;
    const stamp = `build-${ws.name.replace(/[^a-z0-9]+/gi, '_')}`;
    // A workspace is rebuilt when its own files, the lockfile, or a workspace it may import changed:
    // the packages/ it depends on are hashed in as well.
    const deps = workspaces().filter((w) => w.dir.startsWith(path.join(ROOT, 'packages')) && w.dir !== ws.dir);
    const hash = hashInputs([ws.dir, lock, ...deps.map((d) => d.dir)]);
    const output = path.join(ws.dir, ws.name === '@basalt/console' ? '.next' : 'dist');
    if (stampMatches(stamp, hash) && fs.existsSync(output)) continue;
    const r = await runAsync('npm', ['run', 'build', '-w', ws.name], { cwd: ROOT });
    if (r.code !== 0) throw new Error(`npm run build -w ${ws.name} failed:\n${tail(r.out, 25)}`);
    writeStamp(stamp, hash);
    built.push(ws.name);
  }
  return built.length ? `built ${built.join(', ')}` : 'ready';
}
