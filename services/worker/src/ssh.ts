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
  let pending = creating.get(region);
  if (!pending) {
    pending = ensureKey(sshDir, region);
    creating.set(region, pending);
    pending.catch(() => creating.delete(region));
  }
  return pending;
}

async function ensureKey(sshDir: string, region: string): Promise<RegionSsh> {
  const dir = path.join(sshDir, region);
  const privateKeyFile = path.join(dir, 'id_ed25519');
  const ssh = { privateKeyFile, publicKeyFile: `${privateKeyFile}.pub`, knownHostsFile: path.join(sshDir, 'known_hosts') };
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await fs.access(ssh.publicKeyFile);
    return ssh;
  } catch {
    // Not there yet: made below. Another worker may race; ssh-keygen into a temp name, then rename.
  }
  const temp = `${privateKeyFile}.${process.pid}.${Date.now()}`;
  const result = await runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `basalt-${region}`, '-f', temp]);
  if (result.exitCode !== 0) throw new StepError('ssh_key', `ssh-keygen failed: ${result.stderr.trim()}`, result.exitCode);
  // Public key first, by a link that fails when it exists: of two workers making the key
  // at once, exactly one wins and both use its pair.
  try {
    await fs.link(`${temp}.pub`, ssh.publicKeyFile);
    await fs.rename(temp, privateKeyFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await fs.rm(temp, { force: true });
    await waitFor(privateKeyFile);
  } finally {
    await fs.rm(`${temp}.pub`, { force: true });
  }
  return ssh;
}

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      await fs.access(file);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new StepError('ssh_key', `${file} did not appear`);
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
