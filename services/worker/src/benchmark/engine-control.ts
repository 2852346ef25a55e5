// The benchmark job's own view of the engine while a suite runs, as the control plane's user:
// the cache counters around a scenario (cold reads: values read back from disk), and the
// cache bound (maxmemory) a memory:data scenario sets and the fsync policy a durability
// scenario sets (on a Redis peer too), both put back by the job afterwards.
import { StepError } from '../errors.js';
import { infoAs, sendCommands, type TlsTarget } from '../resp.js';

export interface EngineControl {
  host: string;
  port: number;
  user: string;
  password: string;
  secure?: TlsTarget;
}

/** INFO memory figures of the engine's cache (absent ones are 0: a peer without them). */
export interface CacheCounters {
  used_memory: number;
  maxmemory: number;
  cache_hits: number;
  cache_misses: number;
  evicted_values: number;
}

export async function cacheCounters(engine: EngineControl): Promise<CacheCounters> {
  const info = await infoAs(engine.host, engine.port, engine.user, engine.password, 'memory', engine.secure);
  const n = (field: string) => Number(info[field] ?? 0) || 0;
  return { used_memory: n('used_memory'), maxmemory: n('maxmemory'), cache_hits: n('cache_hits'), cache_misses: n('cache_misses'), evicted_values: n('evicted_values') };
}

/** What changed over a scenario: `cold_reads` are the reads the cache missed (values read from disk). */
export function counterDelta(before: CacheCounters, after: CacheCounters) {
  return {
    cold_reads: after.cache_misses - before.cache_misses,
    cache_hits: after.cache_hits - before.cache_hits,
    evicted_values: after.evicted_values - before.evicted_values,
    maxmemory: after.maxmemory,
    used_memory: after.used_memory,
  };
}

/** CONFIG SET of one setting the engine (or Redis) changes live; anything but OK fails the step. */
async function configSet(engine: EngineControl, name: string, value: string): Promise<void> {
  const replies = await sendCommands(engine.host, engine.port, [['AUTH', engine.user, engine.password], ['CONFIG', 'SET', name, value]], 10_000, engine.secure);
  if (replies[0] !== '+OK' || replies[1] !== '+OK') throw new StepError('run_scenarios', `CONFIG SET ${name} ${value}: ${replies.join(' / ')}`);
}

/** CONFIG SET maxmemory (bytes; 0 is no bound). */
export async function setMaxmemory(engine: EngineControl, bytes: number): Promise<void> {
  await configSet(engine, 'maxmemory', String(Math.max(0, Math.round(bytes))));
}

/** CONFIG SET appendfsync (always, everysec, no): Basalt's engine and Redis take the same name. */
export async function setFsync(engine: EngineControl, policy: string): Promise<void> {
  await configSet(engine, 'appendfsync', policy);
}
