// Small network helpers: free loopback ports and waiting for an HTTP endpoint.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { holdsLease, release, releaseOnExit, takeLease } from './lease.mjs';

const PORT_LEASES = path.join(os.tmpdir(), 'basalt-port-leases');
const PORT_SPAN = 12_000;

/**
 * A loopback port nothing listens on, leased to this process until it exits. A port the kernel
 * picks (listen on 0) is free only until the listener closes: two stacks starting side by side
 * were given the same one, and the second API's health check was answered by the first API.
 * So ports come from below the kernel's ephemeral range (no outgoing connection takes one
 * between here and the child's bind), each leased host-wide (lease.mjs) before it is tried.
 */
export async function freePort() {
  const last = ephemeralLow() - 1;
  const first = Math.max(1024, last - PORT_SPAN + 1);
  const span = last - first + 1;
  const start = crypto.randomInt(span);
  for (let i = 0; i < span; i++) {
    const port = first + ((start + i) % span);
    const dir = path.join(PORT_LEASES, String(port));
    if (!takeLease(dir)) continue;
    if (await canListen(port)) {
      releaseOnExit(dir);
      return port;
    }
    release(dir);
  }
  throw new Error(`freePort: no free port in ${first}-${last} (leases in ${PORT_LEASES})`);
}

/**
 * Leases one given port, as freePort() does, when nothing listens on it: a server whose data
 * names its ports (the object store's master keeps its state under its port) gets the same
 * ones back across restarts. A lease this process already holds counts as taken by it.
 */
export async function leasePort(port) {
  const dir = path.join(PORT_LEASES, String(port));
  const mine = holdsLease(dir);
  if (!mine && !takeLease(dir)) return false;
  if (await canListen(port)) {
    releaseOnExit(dir);
    return true;
  }
  if (!mine) release(dir);
  return false;
}

/** The lowest port the kernel gives outgoing connections (ip_local_port_range). */
function ephemeralLow() {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

function canListen(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** True when something listens on 127.0.0.1:port. */
export function portInUse(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => { sock.destroy(); resolve(true); });
    sock.once('error', () => resolve(false));
  });
}

/** Polls `url` until it answers 2xx/3xx or `timeoutMs` passes; `alive()` false aborts early. */
export async function waitForHttp(url, { timeoutMs = 120_000, alive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`gave up waiting for ${url}: the process exited`);
    try {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
      if (res.status < 400) return res;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (last: ${last})`);
}
