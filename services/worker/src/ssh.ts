// SSH material of the `local` region: one key pair per region (authorized in its VMs)
// and the project's known_hosts, where each VM's host key is pinned at creation.
import fs from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from './process.js';
import { StepError } from './errors.js';

export interface RegionSsh {
  privateKeyFile: string;
  publicKeyFile: string;
  knownHostsFile: string;
}

const creating = new Map<string, Promise<RegionSsh>>();

export function regionSsh(sshDir: string, region: string): Promise<RegionSsh> {
  const key = path.join(sshDir, region);
  let pending = creating.get(key);
  if (!pending) {
    pending = ensureKey(sshDir, region);
    creating.set(key, pending);
    pending.catch(() => creating.delete(key));
  }
  return pending;
}

async function ensureKey(sshDir: string, region: string): Promise<RegionSsh> {
  const dir = path.join(sshDir, region);
  const privateKeyFile = path.join(dir, 'id_ed25519');
  const ssh = { privateKeyFile, publicKeyFile: `${privateKeyFile}.pub`, knownHostsFile: path.join(sshDir, 'known_hosts') };
  if (await isWholePair(ssh)) return ssh;
  await fs.mkdir(sshDir, { recursive: true, mode: 0o700 });
  await repairHalfPair(dir, ssh);
  if (await isWholePair(ssh)) return ssh;
  // The pair is made in a directory of its own and renamed into place in one step, so a
  // worker killed at any point leaves either no region directory or a whole pair; of two
  // workers making it at once, the first rename wins and both use its pair.
  const temp = await fs.mkdtemp(path.join(sshDir, `.${region}-`));
  try {
    const result = await runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `basalt-${region}`, '-f', path.join(temp, 'id_ed25519')]);
    if (result.exitCode !== 0) throw new StepError('ssh_key', `ssh-keygen failed: ${result.stderr.trim()}`, result.exitCode);
    await fs.rmdir(dir).catch(() => {}); // an empty directory left by an older worker
    await fs.rename(temp, dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
  if (!(await isWholePair(ssh))) throw new StepError('ssh_key', `${dir} holds no whole key pair`);
  return ssh;
}

/** Both keys are there and the public one is the private one's. */
async function isWholePair(ssh: RegionSsh): Promise<boolean> {
  const publicKey = await fs.readFile(ssh.publicKeyFile, 'utf8').catch(() => undefined);
  if (publicKey === undefined) return false;
  return (await derivedPublicKey(ssh.privateKeyFile)) === keyOf(publicKey);
}

/** The `type base64` part of the public key of a private key file (undefined: none there). */
async function derivedPublicKey(file: string): Promise<string | undefined> {
  const result = await runCommand('ssh-keygen', ['-y', '-f', file]);
  return result.exitCode === 0 ? keyOf(result.stdout) : undefined;
}

const keyOf = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');

/**
 * A region directory an older worker left half made: it linked the public key before it
 * renamed the private one from a temporary name, and a kill between the two left a public key
 * (which VMs may already authorize) beside `id_ed25519.<pid>.<time>`. The matching private key
 * is put in place; a directory that cannot be completed is set aside (never deleted: it is
 * the only copy of that key) for a new pair to take its place.
 */
async function repairHalfPair(dir: string, ssh: RegionSsh): Promise<void> {
  const names = await fs.readdir(dir).catch(() => undefined);
  if (names === undefined || names.length === 0) return;
  const publicKey = await fs.readFile(ssh.publicKeyFile, 'utf8').catch(() => undefined);
  if (publicKey !== undefined) {
    for (const name of names.filter((n) => /^id_ed25519\.\d+\.\d+$/.test(n))) {
      if ((await derivedPublicKey(path.join(dir, name))) !== keyOf(publicKey)) continue;
      await fs.rename(path.join(dir, name), ssh.privateKeyFile).catch(() => {});
      if (await isWholePair(ssh)) return;
    }
  }
  // Checked again: another worker may have completed it meanwhile.
  if (await isWholePair(ssh)) return;
  await fs.rename(dir, `${dir}.half-made-${Date.now()}`).catch(() => {});
}

/** ssh options for Ansible: the project's known_hosts, new hosts accepted once. */
export function sshCommonArgs(ssh: RegionSsh): string {
  return [
    `-o UserKnownHostsFile=${ssh.knownHostsFile}`,
    '-o StrictHostKeyChecking=accept-new',
    '-o IdentitiesOnly=yes',
    '-o ConnectTimeout=10',
  ].join(' ');
}
