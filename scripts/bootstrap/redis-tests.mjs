// Redis 7.0's own test suite (tests/ of Debian's redis source package), which judges
// basalt-server's compatibility (engine/compat/). Fetched with `apt-get source` through a
// deb-src entry of its own, into .tools/redis-src; nothing of Redis is committed.
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../lib/paths.mjs';
import { runAsync, tail } from '../lib/proc.mjs';
import { aptMirror } from './rootfs.mjs';

export const REDIS_SRC = path.join(TOOLS, 'redis-src');
const SOURCES = '/etc/apt/sources.list.d/basalt-redis-src.sources';

export async function redisTests() {
  if (fs.existsSync(path.join(REDIS_SRC, 'tests', 'test_helper.tcl'))) return 'ready';
  if (process.getuid?.() !== 0) return 'skipped: not root, so the Redis test suite (engine/compat) cannot be fetched';
  const mirror = aptMirror();
  if (!mirror) throw new Error('no Debian bookworm mirror found in /etc/apt/sources.list*');
  if (!fs.existsSync(SOURCES)) {
    fs.writeFileSync(
      SOURCES,
      `Types: deb-src\nURIs: ${mirror}\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await runAsync('apt-get', ['update', '-q'], { env });
  if (update.code !== 0) throw new Error(`apt-get update failed:\n${tail(update.out)}`);
  // Unpacked beside the target and renamed at the end, so an interrupted run leaves nothing half.
  const work = `${REDIS_SRC}.fetching`;
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  const source = await runAsync('apt-get', ['source', '-q', 'redis'], { env, cwd: work });
  if (source.code !== 0) throw new Error(`apt-get source redis failed:\n${tail(source.out)}`);
  const unpacked = fs.readdirSync(work).find((f) => f.startsWith('redis-') && fs.statSync(path.join(work, f)).isDirectory());
  if (!unpacked) throw new Error('apt-get source redis left no redis-* directory');
  fs.rmSync(REDIS_SRC, { recursive: true, force: true });
  fs.renameSync(path.join(work, unpacked), REDIS_SRC);
  fs.rmSync(work, { recursive: true, force: true });
  return `fetched ${unpacked}`;
}
