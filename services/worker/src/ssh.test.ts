import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { regionSsh, sshCommonArgs } from './ssh.js';

describe('region SSH key', () => {
  it('is made once and then reused, a matching pair', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ssh-'));
    const first = await regionSsh(dir, 'r1');
    const publicKey = await fs.readFile(first.publicKeyFile, 'utf8');
    expect(publicKey).toMatch(/^ssh-ed25519 \S+ basalt-r1/);
    expect((await fs.stat(first.privateKeyFile)).mode & 0o777).toBe(0o600);
    expect(await fs.readdir(path.join(dir, 'r1'))).toEqual(['id_ed25519', 'id_ed25519.pub']);
    const derived = execFileSync('ssh-keygen', ['-y', '-f', first.privateKeyFile], { encoding: 'utf8' });
    expect(publicKey.split(' ').slice(0, 2)).toEqual(derived.trim().split(' ').slice(0, 2));
    expect(await regionSsh(dir, 'r1')).toEqual(first);
    expect(sshCommonArgs(first)).toContain(`UserKnownHostsFile=${path.join(dir, 'known_hosts')}`);
    expect(sshCommonArgs(first)).toContain('StrictHostKeyChecking=accept-new');
    await fs.rm(dir, { recursive: true });
  });
});

describe('region SSH key made half by a worker killed while making it', () => {
  const keygen = (file: string) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'basalt-r1', '-f', file]);

  it("is completed with the private key an older worker left under its temporary name", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ssh-'));
    await fs.mkdir(path.join(dir, 'r1'));
    const temp = path.join(dir, 'r1', 'id_ed25519.4242.1700000000000');
    keygen(temp);
    await fs.link(`${temp}.pub`, path.join(dir, 'r1', 'id_ed25519.pub'));
    await fs.rm(`${temp}.pub`);
    const publicKey = await fs.readFile(path.join(dir, 'r1', 'id_ed25519.pub'), 'utf8');
    const ssh = await regionSsh(dir, 'r1');
    expect(await fs.readFile(ssh.publicKeyFile, 'utf8')).toBe(publicKey);
    expect(await fs.readdir(path.join(dir, 'r1'))).toEqual(['id_ed25519', 'id_ed25519.pub']);
    await fs.rm(dir, { recursive: true });
  });

  it('that cannot be completed is set aside, and a whole new pair takes its place', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ssh-'));
    await fs.mkdir(path.join(dir, 'r2'));
    keygen(path.join(dir, 'r2', 'orphan'));
    await fs.rename(path.join(dir, 'r2', 'orphan.pub'), path.join(dir, 'r2', 'id_ed25519.pub'));
    await fs.rm(path.join(dir, 'r2', 'orphan'));
    const ssh = await regionSsh(dir, 'r2');
    const derived = execFileSync('ssh-keygen', ['-y', '-f', ssh.privateKeyFile], { encoding: 'utf8' });
    expect((await fs.readFile(ssh.publicKeyFile, 'utf8')).split(' ').slice(0, 2)).toEqual(derived.trim().split(' ').slice(0, 2));
    const names = await fs.readdir(dir);
    expect(names.filter((n) => n.startsWith('r2.half-made-'))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('.r2-'))).toEqual([]);
    await fs.rm(dir, { recursive: true });
  });

  it('two workers making it at once both get the one pair that was renamed into place', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ssh-'));
    // Two module instances: two workers' own caches of the region's key.
    const { vi } = await import('vitest');
    vi.resetModules();
    const other = await import('./ssh.js');
    const [a, b] = await Promise.all([regionSsh(dir, 'r3'), other.regionSsh(dir, 'r3')]);
    expect(a).toEqual(b);
    expect(await fs.readdir(path.join(dir, 'r3'))).toEqual(['id_ed25519', 'id_ed25519.pub']);
    expect((await fs.readdir(dir)).filter((n) => n.startsWith('.r3-'))).toEqual([]);
    await fs.rm(dir, { recursive: true });
  });
});
