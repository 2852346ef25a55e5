// Running child processes: quietly with captured output, or streamed with a prefix.
import { spawn, spawnSync } from 'node:child_process';

/** Runs a command to completion; returns {code, out, stdout}. Output is captured, not shown. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...opts });
  if (r.error) return { code: 127, out: String(r.error.message), stdout: '' };
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, stdout: r.stdout ?? '' };
}

/**
 * The same as run(), without blocking: for the long steps (builds, installs, test suites) that
 * run beside others. With `prefix`, each line of output is also shown live, marked with it.
 */
export function runAsync(cmd, args, opts = {}) {
  const { prefix, ...spawnOpts } = opts;
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...spawnOpts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stdout = '';
    const show = prefix === undefined ? () => {} : lineWriter(prefix);
    child.stdout.on('data', (chunk) => { out += chunk; stdout += chunk; show(chunk); });
    child.stderr.on('data', (chunk) => { out += chunk; show(chunk); });
    child.on('error', (err) => resolve({ code: 127, out: String(err.message), stdout: '' }));
    child.on('close', (code, signal) => { show(null); resolve({ code: code ?? (signal ? 128 : 1), out, stdout }); });
  });
}

/** Writes chunks of output to stdout whole lines at a time, each after `prefix` (null flushes). */
function lineWriter(prefix) {
  let partial = '';
  return (chunk) => {
    if (chunk === null) {
      if (partial) process.stdout.write(`${prefix}${partial}\n`);
      partial = '';
      return;
    }
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    if (lines.length) process.stdout.write(lines.map((l) => `${prefix}${l}\n`).join(''));
  };
}

/** True when `cmd` is found on PATH (or is an executable path). */
export function have(cmd, env = process.env) {
  return run('sh', ['-c', `command -v "${cmd}"`], { env }).code === 0;
}

/** Runs a command with its output streamed (for long steps whose progress matters). */
export function runStreamed(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: opts.stdio ?? 'inherit', ...opts });
    child.on('error', (err) => resolve({ code: 127, error: err }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), signal }));
  });
}

/** The last `n` lines of a text, for error messages that point at the cause. */
export function tail(text, n = 15) {
  return String(text).trimEnd().split('\n').slice(-n).join('\n');
}
