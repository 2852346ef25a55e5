// The cgroups of a benchmark run's processes on the worker's host (the peer server, the client),
// through the local target's cgroup.sh: the one place that knows the cgroup v2 layout
// (cgroup.subtree_control, memory.max, cpu.max) and the v1 one (memory.limit_in_bytes,
// cpu.cfs_quota_us / cpu.cfs_period_us), under the `basalt` group the VMs use. Its functions get
// positional arguments only (names made from a run's id and numbers, never customer text).
import path from 'node:path';
import { runCommand, type RunResult } from '../process.js';

/** Where cgroup.sh is, and the cgroup root it works on (the host's; a test may give another). */
export interface CgroupHost {
  script: string;
  root: string;
}

export const HOST_CGROUP_ROOT = '/sys/fs/cgroup';

export function cgroupHost(repoRoot: string, root: string = HOST_CGROUP_ROOT): CgroupHost {
  return { script: path.join(repoRoot, 'infra', 'terraform', 'modules', 'local', 'scripts', 'cgroup.sh'), root };
}

/**
 * `create` makes the cgroup `name` and sets its limits (`cpus`, `memoryMb`); `kill` kills every
 * process in it and waits until they are gone; `remove` removes it (empty). Absent is fine.
 */
export function runCgroup(host: CgroupHost, fn: 'create' | 'kill' | 'remove', name: string, ...limits: [cpus: string, memoryMb: string] | []): Promise<RunResult> {
  const body = fn === 'create' ? 'cgroup_create "$1" && cgroup_set_limits "$1" "$2" "$3"' : `cgroup_${fn} "$1"`;
  return runCommand('bash', ['-c', `. "$0" && cgroup_root="$1" && shift && ${body}`, host.script, host.root, name, ...limits], {
    env: { PATH: process.env.PATH },
    timeoutMs: 20_000,
  });
}

/**
 * argv whose process puts itself into cgroup `name`, then execs `command`: the command never
 * runs outside the cgroup, and its pid is the one spawned (a cancel's signal reaches it).
 */
export function inCgroup(host: CgroupHost, name: string, command: { file: string; args: string[] }): { file: string; args: string[] } {
  return { file: 'bash', args: ['-c', 'set -e; . "$0"; cgroup_root="$1"; cgroup_enter "$2" $$; shift 2; exec "$@"', host.script, host.root, name, command.file, ...command.args] };
}
