// The npm workspaces, in the order the root package.json lists their globs
// (packages before services before the console: the order builds must run in).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths.mjs';

export function workspaces() {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const found = [];
  for (const glob of root.workspaces ?? []) {
    const dirs = glob.endsWith('/*')
      ? listDirs(path.join(ROOT, glob.slice(0, -2)))
      : [path.join(ROOT, glob)];
    for (const dir of dirs) {
      const manifest = path.join(dir, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      found.push({ name: pkg.name, dir, scripts: pkg.scripts ?? {} });
    }
  }
  return found;
}

function listDirs(parent) {
  if (!fs.existsSync(parent)) return [];
  return fs.readdirSync(parent, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(parent, d.name))
    .sort();
}
