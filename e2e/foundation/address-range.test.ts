// Test stacks that run at once on this host hand out addresses from ranges of the pool that no
// two processes hold (scripts/lib/address-range.mjs): each process its own /24, kept while it
// lives, taken over once it has died.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/env.js';

const MODULE = path.join(ROOT, 'scripts', 'lib', 'address-range.mjs');
const leaseIn = (script: string) => `const { leaseAddressRange, takeRange } = await import(${JSON.stringify(MODULE)}); ${script}`;

describe('address ranges leased per test process', () => {
  test('this process holds one /24 inside the pool, the same on every call', async () => {
    const { leaseAddressRange } = await import(MODULE);
    expect(process.env.BASALT_ADDRESS_RANGE).toMatch(/^10\.77\.\d+\.0\/24$/);
    expect(leaseAddressRange()).toBe(leaseAddressRange());
  });

  test('processes alive at once hold different ranges, and a dead holder gives its range back', async () => {
    // A directory of leases of the test's own, so no neighbouring test process takes the range
    // the killed holder leaves. Three holders that stay alive until told, and print their range.
    const leases = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-leases-test-'));
    const env = { ...process.env, BASALT_ADDRESS_RANGE: '', BASALT_ADDRESS_LEASES: leases };
    const holders = [0, 1, 2].map(() => spawn(process.execPath, ['--input-type=module', '-e', leaseIn(
      'process.stdout.write(leaseAddressRange() + "\\n"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));',
    )], { env, stdio: ['pipe', 'pipe', 'inherit'] }));
    const ranges = await Promise.all(holders.map((child) => new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())))));
    expect(new Set(ranges).size).toBe(3);
    // SIGKILL: no exit handler runs, so the range is freed only by the holder being gone.
    const killed = holders[0]!;
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    // Taken in a process of its own, in the test's directory: the dead holder's range, not a live one's.
    const take = (n: number) => execFileSync(process.execPath, ['--input-type=module', '-e', leaseIn(`process.stdout.write(String(takeRange(${n})));`)], { encoding: 'utf8', env });
    const third = (range: string) => Number(range.split('.')[2]);
    expect(take(third(ranges[1]!))).toBe('undefined');
    expect(take(third(ranges[0]!))).toBe(ranges[0]);
    for (const child of holders.slice(1)) child.stdin!.end();
    fs.rmSync(leases, { recursive: true, force: true });
  });
});
