// What a test can see of a `local` VM from the host: its cgroup limits, its state dir,
// its process, and its engine through the real redis-cli.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../support/env.js';

/**
 * What the deployed engine supports, found as the worker finds it (the binary's usage,
 * or BASALT_ENGINE_FEATURES): the tests of users and allowlist run when it has them.
 */
export const ENGINE_FEATURES = engineFeatures();

function engineFeatures(): Set<string> {
  if (process.env.BASALT_ENGINE_FEATURES !== undefined) {
    return new Set(process.env.BASALT_ENGINE_FEATURES.split(',').map((f) => f.trim()).filter(Boolean));
  }
  const binary = process.env.BASALT_ENGINE_BIN ?? path.join(ROOT, 'engine', 'target', 'release', 'basalt-server');
  // As services/worker/src/engine-features.ts probes: a known flag stops at the bad port.
  const probes: Record<string, string[]> = {
    users: ['--users-file', '/nonexistent/basalt-probe.acl'],
    allowlist: ['--allowlist', '127.0.0.1/32'],
    tls: ['--tls-port', '6380'],
  };
  const found = new Set<string>();
  for (const [feature, flag] of Object.entries(probes)) {
    const run = spawnSync(binary, [...flag, '--port', 'not-a-port'], { encoding: 'utf8', timeout: 10_000 });
    const text = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== null && !text.includes(`unknown option ${flag[0]}`) && /port/.test(text)) found.add(feature);
  }
  return found;
}

/** The VM's machine name (its cgroup and veth), as vm-create.sh recorded it in the VM's directory. */
export function machineOf(vmDirectory: string): string {
  return fs.readFileSync(path.join(vmDirectory, 'machine'), 'utf8').trim();
}

export interface CgroupLimits {
  cpus: number;
  memoryMb: number;
}

export function cgroupPaths(name: string): string[] {
  if (fs.existsSync('/sys/fs/cgroup/cgroup.controllers')) return [`/sys/fs/cgroup/basalt/${name}`];
  return [`/sys/fs/cgroup/cpu/basalt/${name}`, `/sys/fs/cgroup/memory/basalt/${name}`];
}

export function cgroupLimits(name: string): CgroupLimits {
  const read = (file: string) => fs.readFileSync(file, 'utf8').trim();
  if (fs.existsSync('/sys/fs/cgroup/cgroup.controllers')) {
    const [quota, period] = read(`/sys/fs/cgroup/basalt/${name}/cpu.max`).split(' ');
    return { cpus: Number(quota) / Number(period), memoryMb: Number(read(`/sys/fs/cgroup/basalt/${name}/memory.max`)) / 2 ** 20 };
  }
  const quota = Number(read(`/sys/fs/cgroup/cpu/basalt/${name}/cpu.cfs_quota_us`));
  const period = Number(read(`/sys/fs/cgroup/cpu/basalt/${name}/cpu.cfs_period_us`));
  const memory = Number(read(`/sys/fs/cgroup/memory/basalt/${name}/memory.limit_in_bytes`));
  return { cpus: quota / period, memoryMb: memory / 2 ** 20 };
}

/** Processes inside the VM's cgroup (all of the container's, when it runs). */
export function cgroupProcessCount(name: string): number {
  const dir = cgroupPaths(name).at(-1)!;
  return fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).length;
}

export function vmDir(dataDir: string, nodeName: string): string {
  return path.join(dataDir, 'vms', nodeName);
}

/** A systemd-nspawn process whose command line names this VM's machine. */
export function nspawnRunning(name: string): boolean {
  const out = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
  return out.split('\n').some((line) => line.startsWith('systemd-nspawn') && line.includes(`--machine=${name}`));
}

export interface Credentials {
  username: string;
  password: string;
}

/** Runs the real redis-cli against an endpoint, as the given user when the engine has users. */
export function redisCli(host: string, port: number, credentials: Credentials | undefined, ...args: string[]): string {
  const auth = credentials && ENGINE_FEATURES.has('users') ? ['--user', credentials.username, '--pass', credentials.password, '--no-auth-warning'] : [];
  return execFileSync('redis-cli', ['-h', host, '-p', String(port), ...auth, ...args], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A PING through redis-cli, told as `answered: <reply>` or `refused: <redis-cli's error>`. */
export function pingOutcome(host: string, port: number, credentials: Credentials | undefined): string {
  try {
    return `answered: ${redisCli(host, port, credentials, 'PING')}`;
  } catch (error) {
    return `refused: ${String((error as { stderr?: string }).stderr ?? error)}`;
  }
}

/** Runs a command as root in a local VM over SSH with the region's key, as Ansible reaches it. */
export function sshToVm(dataDir: string, ip: string, command: string): string {
  return execFileSync(
    'ssh',
    [
      '-i', path.join(dataDir, 'ssh', 'local', 'id_ed25519'),
      '-o', `UserKnownHostsFile=${path.join(dataDir, 'ssh', 'known_hosts')}`,
      '-o', 'StrictHostKeyChecking=yes',
      '-o', 'BatchMode=yes',
      `root@${ip}`,
      command,
    ],
    { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
  ).trim();
}
