// Runs one tool (terraform, ansible-playbook) as a child process: output collected line by
// line, a tail kept for faults, a deadline enforced. Never goes through a shell.
import { spawn } from 'node:child_process';
import { childEnv } from './child-env.js';
import { groupDiesWithWorker } from './child-lifetime.js';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called with every complete stdout line as it arrives. */
  onStdoutLine?: (line: string) => void;
}

export interface RunResult {
  command: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

const MAX_KEPT_CHARS = 8 * 1024 * 1024;

export function runCommand(file: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const command = [file, ...args].join(' ');
  return new Promise((resolve) => {
    const lifetime = groupDiesWithWorker(file, args);
    const child = spawn(lifetime.file, lifetime.args, {
      cwd: options.cwd,
      // A process group of its own, which the keeper ends whole (child-lifetime.ts).
      detached: true,
      // Never the worker's own environment (master key, database URL): see child-env.ts.
      env: options.env ?? childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let timedOut = false;
    const timer = options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
        }, options.timeoutMs)
      : undefined;

    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout = keep(stdout + chunk);
      if (!options.onStdoutLine) return;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onStdoutLine(line);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = keep(stderr + chunk);
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, extra = '') => {
      if (timer) clearTimeout(timer);
      if (pending && options.onStdoutLine) options.onStdoutLine(pending);
      resolve({
        command,
        exitCode,
        signal,
        stdout,
        stderr: stderr + extra,
        timedOut,
        durationMs: Date.now() - started,
      });
    };
    child.on('error', (error) => finish(null, null, `\ncould not run ${file}: ${error.message}`));
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** The last `count` non-empty lines of a tool's output, for a fault record. */
export function outputTail(text: string, count = 30): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-count)
    .join('\n');
}

function keep(text: string): string {
  return text.length > MAX_KEPT_CHARS ? text.slice(-MAX_KEPT_CHARS) : text;
}
