// The processes in a benchmark run's network namespace, as a test looking from outside sees
// them. Runs make and remove their namespaces while tests look (the peer namespace is made
// again for each engine configuration), and processes in them exit at any time, so a
// namespace or process that went is simply not listed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Pids of the processes in network namespace `name`; [] when it is not there. */
export function namespacePids(name: string): number[] {
  try {
    return execFileSync('ip', ['netns', 'pids', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 1);
  } catch {
    return [];
  }
}

/** Pids in namespace `name` whose command line holds `program`. */
export function namespaceProcesses(name: string, program: string): number[] {
  return namespacePids(name).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(program);
    } catch {
      return false;
    }
  });
}
