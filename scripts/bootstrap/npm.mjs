// npm dependencies of every workspace, installed from the committed lockfile.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.mjs';
import { runAsync, tail } from '../lib/proc.mjs';
import { hashInputs, stampMatches, writeStamp } from '../lib/stamp.mjs';
import { workspaces } from '../lib/workspaces.mjs';

export async function npmDeps() {
  const manifests = [path.join(ROOT, 'package.json'), path.join(ROOT, 'package-lock.json')];
  for (const ws of workspaces()) manifests.push(path.join(ws.dir, 'package.json'));
  const hash = hashInputs(manifests, process.version);
  if (fs.existsSync(path.join(ROOT, 'node_modules')) && stampMatches('npm', hash)) return 'ready';
  // A fresh clone installs exactly the lockfile; a tree that already has node_modules is brought
  // up to date in place, so a developer's running processes keep their modules.
  const fresh = !fs.existsSync(path.join(ROOT, 'node_modules'));
  const r = await runAsync('npm', [fresh ? 'ci' : 'install', '--no-audit', '--no-fund'], { cwd: ROOT });
  if (r.code !== 0) {
    // npm prints its usage after the cause; show the cause.
    const cause = r.out.split('\n').filter((l) => /npm error (code|`npm ci`|Missing|Invalid|\S.*(ERR|E[A-Z]{3,}))/.test(l));
    throw new Error(`npm ${fresh ? 'ci' : 'install'} failed:\n${(cause.length ? cause.join('\n') : tail(r.out))}`);
  }
  writeStamp('npm', hash);
  return 'installed';
}
