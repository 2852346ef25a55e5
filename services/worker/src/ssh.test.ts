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
