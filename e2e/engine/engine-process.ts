// basalt-server for client tests: the release binary ($BASALT_ENGINE_BIN) on a free loopback
// port with a fresh temp data dir (or a given one, kept, to restart on it), stopped (SIGTERM,
// then SIGKILL) or killed with SIGKILL, and cleaned up afterwards. `managed` starts it as the
// platform deploys every instance (issue 43: the platform's commands refused to customer
// users), for the tests of what customers' clients do.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/env.js';
import { freePort } from '../support/ports.js';

export type Engine = {
  port: number;
  dir: string;
  output: () => string;
  stop: () => Promise<void>;
  /** SIGKILL, as a crash: the data dir stays for a restart. */
  kill9: () => Promise<void>;
};

export function engineBinary(): string {
  const bin = process.env.BASALT_ENGINE_BIN ?? path.join(ROOT, 'engine', 'target', 'release', 'basalt-server');
  if (!fs.existsSync(bin)) throw new Error(`${bin} is missing: build it with \`cargo build --release\` in engine/`);
  return bin;
}


function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => { sock.destroy(); resolve(true); });
    sock.once('error', () => resolve(false));
  });
}

export interface EngineOptions {
  /** Managed mode (`--managed yes`), as the ansible role renders it for every instance. */
  managed?: boolean;
}

/** `existingDir`: a data dir to (re)start on, which the caller removes. */
export async function startEngine(extraArgs: string[] = [], existingDir?: string, options: EngineOptions = {}): Promise<Engine> {
  const dir = existingDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-engine-e2e-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    engineBinary(),
    ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--threads', '2', ...(options.managed ? ['--managed', 'yes'] : []), ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => { output += d; });
  child.stderr?.on('data', (d) => { output += d; });
  let exited = false;
  const exit = new Promise((r) => child.once('exit', () => { exited = true; r(undefined); }));
  const deadline = Date.now() + 30_000;
  while (!(await accepts(port))) {
    if (exited) throw new Error(`basalt-server exited at start:\n${output}`);
    if (Date.now() > deadline) throw new Error(`basalt-server did not listen on ${port}:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    dir,
    output: () => output,
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exit;
        clearTimeout(timer);
      }
      if (existingDir === undefined) fs.rmSync(dir, { recursive: true, force: true });
    },
    kill9: async () => {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
  };
}
