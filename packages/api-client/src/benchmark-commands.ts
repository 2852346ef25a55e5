// The commands that rerun a stored benchmark scenario with the tools the papers used, from
// the exact basalt-bench command the worker ran (its `command_line`, password shown as
// <password>): memtier_benchmark for the memtier scenarios (the same flags; basalt-bench's
// own --timeout left out), YCSB for `basalt-bench ycsb` (its properties as `-p`, its
// connections as -threads). `basalt-bench canonical` has no published twin to give.

/** Shell words of a stored command line (single quotes as displayCommand writes them). */
function words(line: string): string[] {
  return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

const shellWord = (arg: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** memtier_benchmark's command for a memtier scenario, or null for another mode. */
export function memtierCommandOf(commandLine: string): string | null {
  const argv = words(commandLine);
  if (argv[0] !== 'basalt-bench' || argv[1] === 'ycsb' || argv[1] === 'canonical') return null;
  return ['memtier_benchmark', ...argv.slice(1).filter((a) => !a.startsWith('--timeout='))].map(shellWord).join(' ');
}

/** YCSB flags of basalt-bench and the properties they set in YCSB's redis binding. */
const YCSB_PROPERTY: Record<string, string> = { server: 'redis.host', host: 'redis.host', port: 'redis.port', 'command-group': 'redis.command_group' };
/** basalt-bench's own output and report flags: no YCSB twin. */
const BASALT_ONLY = new Set(['print-percentiles', 'hide-histogram', 'timeout', 'json-out-file', 'tls', 'cacert', 'sni', 'tls-skip-verify']);

/**
 * YCSB's command for a `basalt-bench ycsb load|run` scenario, or null for another mode.
 * The string command group (redis.command_group) is the Tair paper's modified YCSB; upstream
 * YCSB's redis binding writes hashes and logs in with a password only (redis.password).
 */
export function ycsbCommandOf(commandLine: string): string | null {
  const argv = words(commandLine);
  if (argv[0] !== 'basalt-bench' || argv[1] !== 'ycsb' || (argv[2] !== 'load' && argv[2] !== 'run')) return null;
  const out = ['./bin/ycsb', argv[2], 'redis', '-s'];
  let threads: string | undefined;
  for (const arg of argv.slice(3)) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) continue;
    const [, name, value = ''] = match;
    if (BASALT_ONLY.has(name!)) continue;
    if (name === 'workload') out.push('-P', `workloads/workload${value}`);
    else if (name === 'threads') threads = value;
    else if (name === 'authenticate') out.push('-p', `redis.password=${value.includes(':') ? value.slice(value.indexOf(':') + 1) : value}`);
    else out.push('-p', `${YCSB_PROPERTY[name!] ?? name}=${value}`);
  }
  if (threads) out.push('-threads', threads);
  return out.map(shellWord).join(' ');
}
