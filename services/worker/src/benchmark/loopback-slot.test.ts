// The server slot beside a process VM: its address from the run's id, and the process it
// starts found again from its pid file (as a restarted worker would) and stopped, also after
// it rewrote its command line as Redis does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../context.js';
import { loopbackSlotAddress, startLoopbackSlot, stopLoopbackSlot } from './loopback-slot.js';

const runsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loopback-slot-'));
const ctx = { config: { runsDir } } as JobContext;
const ID = '3f2b9c1e-8d4a-4b6e-9f10-2a3b4c5d6e7f';

afterAll(() => fs.rmSync(runsDir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
};

describe('loopback slot', () => {
  it('gives each run an address of 127.78.0.0/16 from its id, never .0 or .255', () => {
    expect(loopbackSlotAddress(ID)).toBe(loopbackSlotAddress(ID));
    expect(loopbackSlotAddress(ID)).not.toBe(loopbackSlotAddress('3f2c9c1e-8d4a-4b6e-9f10-2a3b4c5d6e7f'));
    for (const id of [ID, '00000000-0000-4000-8000-000000000000', 'ffffffff-ffff-4fff-bfff-ffffffffffff']) {
      const [a, b, c, d] = loopbackSlotAddress(id).split('.').map(Number);
      expect([a, b]).toEqual([127, 78]);
      for (const byte of [c!, d!]) expect(byte >= 1 && byte <= 254).toBe(true);
    }
    expect(() => loopbackSlotAddress('x; rm -rf /')).toThrow(/not a run id/);
  });

  it('stops the process it started from its pid file, even with a rewritten command line', async () => {
    // bash renames itself through exec -a: the command line no longer says what was started.
    const child = startLoopbackSlot(ctx, ID, ['bash', '-c', 'exec -a renamed-server sleep 60']);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(child.pid!)).toBe(true);
    expect(fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')).toContain('renamed-server');
    await stopLoopbackSlot(ctx, ID);
    expect(alive(child.pid!)).toBe(false);
    expect(fs.readdirSync(path.join(runsDir, 'loopback-slots'))).toEqual([]);
    // Nothing recorded: nothing to do.
    await stopLoopbackSlot(ctx, ID);
  });

  it('leaves alone a process that took a recorded pid since (another start time)', async () => {
    const other = startLoopbackSlot(ctx, ID, ['sleep', '60']);
    const file = path.join(runsDir, 'loopback-slots', `${ID}.json`);
    const recorded = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; started: string };
    fs.writeFileSync(file, JSON.stringify({ ...recorded, started: String(Number(recorded.started) - 1) }));
    await stopLoopbackSlot(ctx, ID);
    expect(alive(other.pid!)).toBe(true);
    other.kill('SIGKILL');
  });
});
