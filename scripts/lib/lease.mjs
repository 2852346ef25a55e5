// Host-wide leases between test processes: a directory made atomically, holding the holder's
// pid, taken over once that process has died. Address ranges (address-range.mjs) and loopback
// ports (net.mjs) are leased this way, so stacks that start side by side never pick the same.
import fs from 'node:fs';
import path from 'node:path';

/** Makes the lease directory `dir`, or takes over one whose holder has died; true when held. */
export function takeLease(dir) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (!stale(dir)) return false;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return false;
}

const held = new Set();

/** True when this process holds the lease `dir` (a server restarted by it keeps its ports). */
export function holdsLease(dir) {
  try {
    return Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8')) === process.pid;
  } catch {
    return false;
  }
}

/** Gives the lease back when this process exits (one exit handler for all it holds). */
export function releaseOnExit(dir) {
  if (held.size === 0) process.once('exit', () => held.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  held.add(dir);
}

/** Gives the lease back now. */
export function release(dir) {
  held.delete(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A lease whose holder is gone; one without a pid file is being made unless it is old. */
function stale(dir) {
  let pid;
  try {
    pid = Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    try {
      return Date.now() - fs.statSync(dir).mtimeMs > 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return error.code === 'ESRCH';
  }
}
