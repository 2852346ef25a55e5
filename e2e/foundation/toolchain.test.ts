// The bootstrap's promises: the tools every later step relies on run from where it put them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, requireEnv } from '../support/env.js';

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'utf8', env: process.env });

describe('toolchain in .tools', () => {
  test('terraform on PATH is 1.5.7 built into .tools/bin', () => {
    const found = sh('sh', ['-c', 'command -v terraform']).trim();
    expect(found).toBe(path.join(ROOT, '.tools', 'bin', 'terraform'));
    expect(JSON.parse(sh('terraform', ['version', '-json'])).terraform_version).toBe('1.5.7');
  });

  test("terraform reads this clone's CLI config, whose only provider mirror is in this clone", () => {
    expect(process.env.TF_CLI_CONFIG_FILE).toBe(path.join(ROOT, '.tools', 'terraformrc'));
    const rc = fs.readFileSync(requireEnv('TF_CLI_CONFIG_FILE'), 'utf8');
    const mirrors = [...rc.matchAll(/path\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(mirrors).toEqual([path.join(ROOT, '.tools', 'terraform-providers')]);
  });

  test('ansible-playbook runs from the venv with ansible-core 2.19', () => {
    const found = sh('sh', ['-c', 'command -v ansible-playbook']).trim();
    expect(found).toBe(path.join(ROOT, '.tools', 'ansible', 'bin', 'ansible-playbook'));
    expect(sh('ansible-playbook', ['--version'])).toMatch(/core 2\.19\./);
  });

  test('the real clients that judge compatibility are installed', () => {
    expect(sh('redis-cli', ['--version'])).toMatch(/^redis-cli \d+\./);
    expect(sh('redis-benchmark', ['--version'])).toMatch(/redis-benchmark \d+\./);
    expect(sh(path.join(ROOT, '.tools', 'py', 'bin', 'python'), ['-c', 'import redis, pymemcache; print("ok")']).trim()).toBe('ok');
    expect(fs.existsSync('/usr/bin/chromium')).toBe(true);
  });

  test('the engine binaries are built', () => {
    for (const bin of [requireEnv('BASALT_ENGINE_BIN'), requireEnv('BASALT_BENCH_BIN')]) {
      expect(fs.statSync(bin).mode & 0o111, `${bin} is executable`).not.toBe(0);
    }
  });

  test.runIf(process.getuid?.() === 0)('the VM image has systemd, sshd and python3', () => {
    const image = path.join(ROOT, '.data', 'images', 'bookworm');
    for (const file of ['lib/systemd/systemd', 'usr/sbin/sshd', 'usr/bin/python3']) {
      expect(fs.existsSync(path.join(image, file)), file).toBe(true);
    }
  });
});
