// A real measurement for the benchmarks tab: basalt-server on a loopback port with a temp data
// dir, and basalt-bench (memtier_benchmark's flags) run against it for a couple of seconds.
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../support/env.js';
import { waitForPort } from './wait-port.js';

const run = promisify(execFile);

function bin(variable: string, name: string): string {
  const file = process.env[variable] ?? path.join(ROOT, 'engine', 'target', 'release', name);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: build the engine (cargo build --release in engine/, the bootstrap does)`);
  return file;
}

export interface Measured {
  command: string;
  report: Record<string, unknown>;
}

export async function measureMemtierDefault(seconds = 2): Promise<Measured> {
  const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
  const port: number = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-bench-'));
  const server = spawn(bin('BASALT_ENGINE_BIN', 'basalt-server'), ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir], { stdio: 'ignore' });
  try {
    await waitForPort(port, 10_000);
    const json = path.join(dir, 'report.json');
    const args = ['-s', '127.0.0.1', '-p', String(port), '-t', '1', '-c', '4', '--test-time', String(seconds), '--hide-histogram', '--json-out-file', json];
    await run(bin('BASALT_BENCH_BIN', 'basalt-bench'), args, { timeout: (seconds + 20) * 1000 });
    return { command: `basalt-bench ${args.slice(0, -2).join(' ')}`, report: JSON.parse(fs.readFileSync(json, 'utf8')) };
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
