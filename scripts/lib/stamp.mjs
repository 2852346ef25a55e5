// Stamps make the bootstrap fast when nothing changed: a step records a hash of its inputs
// and is skipped while the hash is the same and its outputs exist.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { STAMPS } from './paths.mjs';

const SKIP_DIRS = new Set(['node_modules', 'target', '.next', 'dist', '.git', '.tools', '.data']);

/** Hash of files (or of every file under directories), by path and content. */
export function hashInputs(paths, extra = '') {
  const h = crypto.createHash('sha256');
  h.update(extra);
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) if (!SKIP_DIRS.has(name)) visit(path.join(p, name));
    } else {
      h.update(p);
      h.update(fs.readFileSync(p));
    }
  };
  for (const p of paths) visit(p);
  return h.digest('hex');
}

export function stampMatches(name, hash) {
  const file = path.join(STAMPS, name);
  return fs.existsSync(file) && fs.readFileSync(file, 'utf8') === hash;
}

export function writeStamp(name, hash) {
  fs.mkdirSync(STAMPS, { recursive: true });
  fs.writeFileSync(path.join(STAMPS, name), hash);
}
