// npm dependencies of every workspace, installed from the committed lockfile.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/paths.mjs';
import { run, tail } from '../lib/proc.mjs';
import { hashInputs, stampMatches, writeStamp } from '../lib/stamp.mjs';
import { workspaces } from '../lib/workspaces.mjs';

export async function npmDeps() {
  const manifests = [path.join(ROOT, 'package.json'), path.join(ROOT, 'package-lock.json')];
  for (const ws of workspaces()) manifests.push(path.join(ws.dir, 'package.json'));
  const hash = hashInputs(manifests, process.version);
  if (fs.existsSync(path.join(ROOT, 'node_modules')) && stampMatches('npm', hash)) return 'ready';
  const r = run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT });
  if (r.code !== 0) throw new Error(`npm ci failed:\n${tail(r.out)}`);
  writeStamp('npm', hash);
  return 'installed';
}
