// Each server of a run is measured alone: before every scenario the job waits until neither
// the instance nor the peer has background work of its own running. Redis rewrites its AOF on
// its own once a write scenario grew it past 64 MB (auto-aof-rewrite-min-size), a forked child
// writing the whole data set; Basalt compacts its log once it is mostly dead (a 4 KB write
// scenario leaves hundreds of MB of it). Either, run beside the next scenario on the same
// cores and disk, moved its figure by up to 2x: in the per-type reports the instance's 4 KB
// read-only row ran at 37 000 ops/s beside a rewrite and 69 000 without one, and 4 KB rows fell
// round after round while compaction trailed the writes. A rerun of the commands waits the same
// way (the report says how), so both measure the same state.
import { infoAs, type TlsTarget } from '../resp.js';

/** Longest wait for the servers' background work; a run goes on after it (and says so). */
const QUIET_WAIT_MS = 120_000;
const POLL_MS = 200;

/** INFO persistence fields that say a server is busy on its own: Redis's rewrite and save, Basalt's compaction. */
export const BACKGROUND_WORK_FIELDS = ['aof_rewrite_in_progress', 'aof_rewrite_scheduled', 'rdb_bgsave_in_progress', 'wal_compaction_pending'] as const;

/** A server the job can ask INFO persistence (the instance as the control user, or a Redis peer). */
export interface QuietTarget {
  name: string;
  host: string;
  port: number;
  username: string;
  password: string;
  secure?: TlsTarget;
}

/** Whether an INFO persistence section reports background work. */
export function busyIn(info: Record<string, string>): boolean {
  return BACKGROUND_WORK_FIELDS.some((field) => info[field] === '1');
}

/** Milliseconds waited until none of `servers` had background work (quiet false: gave up after QUIET_WAIT_MS). */
export async function waitQuiet(servers: QuietTarget[], signal?: AbortSignal): Promise<{ waitedMs: number; quiet: boolean; busy: string[] }> {
  const started = Date.now();
  let busy: string[] = [];
  while (!signal?.aborted) {
    busy = [];
    for (const s of servers) {
      if (busyIn(await infoAs(s.host, s.port, s.username, s.password, 'persistence', s.secure))) busy.push(s.name);
    }
    if (busy.length === 0) return { waitedMs: Date.now() - started, quiet: true, busy };
    if (Date.now() - started > QUIET_WAIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { waitedMs: Date.now() - started, quiet: false, busy };
}
