// Redis rewrites its AOF on its own once a write scenario grew it past 64 MB
// (auto-aof-rewrite-min-size): the rewrite (a forked child writing the whole data set) then
// runs while the instance's next scenario is measured, on the same cores and disk. In the
// per-type reports the instance's 4 KB read-only row, measured right after the peer's 4 KB
// writes, ran at 37 000 ops/s beside a rewrite and 69 000 without one. The job lets the peer
// finish its background work before the instance's next scenario, so each server is measured
// alone, as a rerun of the commands against a fresh instance measures it.
import { infoAs } from '../resp.js';
import type { Peer } from './peer-server.js';

/** Longest wait for the peer's background work; a run goes on after it (and says so). */
const QUIET_WAIT_MS = 120_000;
const POLL_MS = 200;

/** Milliseconds waited until the Redis peer had no AOF rewrite or save running (memcached: none). */
export async function waitPeerQuiet(peer: Peer, signal?: AbortSignal): Promise<{ waitedMs: number; quiet: boolean }> {
  if (peer.kind !== 'redis') return { waitedMs: 0, quiet: true };
  const started = Date.now();
  while (!signal?.aborted) {
    const info = await infoAs(peer.target.host, peer.target.port, peer.target.username, peer.target.password ?? '', 'persistence');
    const busy = ['aof_rewrite_in_progress', 'aof_rewrite_scheduled', 'rdb_bgsave_in_progress'].some((field) => info[field] === '1');
    if (!busy) return { waitedMs: Date.now() - started, quiet: true };
    if (Date.now() - started > QUIET_WAIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { waitedMs: Date.now() - started, quiet: false };
}
