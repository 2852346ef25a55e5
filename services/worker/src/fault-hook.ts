// A test setting, never a production one: the worker dies at a named step of a named operation
// kind, so the fault matrix (e2e/provisioning/fault-matrix.test.ts) can show that every
// operation still ends where it was asked to when its worker is killed there (issue 45).
//
//   BASALT_FAULT=<how>:<kind>:<step>[@<ms>]   obeyed only with BASALT_TEST_FAULTS=1
//
// A BASALT_FAULT without BASALT_TEST_FAULTS=1 stops the worker at startup: a fault setting left
// in a real environment must not sit there unnoticed. The platform (`npm start`) sets neither.
// - how `kill`: the worker SIGKILLs itself; its children see it die (child-lifetime.ts).
// - how `kill-group`: a process outside the worker freezes, then SIGKILLs, the worker and every
//   process under it that shares its cgroup, all at once, as `cgroup.kill` or an OOM kill of
//   its unit would: no child gets to react to its parent's death. VMs (cgroups of their own)
//   are not touched.
// - `@ms`: that long after the step's work started, or as soon as the work ends if it ends
//   sooner (its effect made, its finish not yet recorded); without it, as the work starts.
// Each worker process dies once at most: the one that takes the operation over runs it through.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface FaultSetting {
  how: 'kill' | 'kill-group';
  kind: string;
  step: string;
  afterMs: number;
}

const SHAPE = /^(kill|kill-group):([a-z_]+):([a-z_]+)(?:@(\d{1,6}))?$/;

/** The fault setting of `env`, if any; throws when it is malformed or the test flag is not set. */
export function parseFault(env: NodeJS.ProcessEnv): FaultSetting | undefined {
  const value = env.BASALT_FAULT?.trim();
  if (!value) return undefined;
  if (env.BASALT_TEST_FAULTS !== '1') throw new Error('BASALT_FAULT is a test setting: it is obeyed only with BASALT_TEST_FAULTS=1');
  const match = SHAPE.exec(value);
  if (!match) throw new Error('BASALT_FAULT must be <kill|kill-group>:<kind>:<step>[@<ms>]');
  return { how: match[1] as FaultSetting['how'], kind: match[2]!, step: match[3]!, afterMs: Number(match[4] ?? 0) };
}

let armed: FaultSetting | undefined;
let log: (message: string) => void = () => {};

/** Arms the setting for this process (main.ts, at startup). */
export function armFault(setting: FaultSetting | undefined, logger: (message: string) => void): void {
  armed = setting;
  log = logger;
  if (setting) log(`TEST FAULT armed: ${setting.how} at ${setting.kind}:${setting.step}${setting.afterMs ? ` after ${setting.afterMs} ms` : ''}`);
}

export interface ArmedFault {
  /** Runs `work`; the worker dies while it runs (at `afterMs`) or as it ends. Never returns when it fires. */
  during<T>(work: () => Promise<T>): Promise<T>;
}

/** The armed fault at this step of this kind, taken (it fires once per process). */
export function faultAt(kind: string, step: string): ArmedFault | undefined {
  if (!armed || armed.kind !== kind || armed.step !== step) return undefined;
  const fault = armed;
  armed = undefined;
  return {
    during: (work) => {
      let dying: Promise<never> | undefined;
      const fire = () => (dying ??= die(fault));
      return Promise.race([work().then(fire, fire), new Promise<never>((resolve) => setTimeout(() => resolve(fire()), fault.afterMs))]);
    },
  };
}

function die(fault: FaultSetting): Promise<never> {
  log(`TEST FAULT: ${fault.how} at ${fault.kind}:${fault.step}`);
  if (fault.how === 'kill') process.kill(process.pid, 'SIGKILL');
  else killGroupFromOutside();
  return new Promise<never>(() => {});
}

/**
 * A detached shell, in a session of its own, stops then kills every process in the worker's
 * tree that is in the worker's cgroup (the worker included), listing twice so that a child
 * started between the listing and the stop is caught. The shell is the worker's child too:
 * it leaves itself and its own children (the listing's pipes) out.
 */
function killGroupFromOutside(): void {
  const cgroup = fs.readFileSync('/proc/self/cgroup', 'utf8').trim();
  const script = `
    tree() {
      ps -e -o pid=,ppid= | awk -v root="$1" -v self="$$" '{ parent[$1] = $2 } END {
        want[root] = 1
        do { grew = 0; for (p in parent) if (p != self && !(p in want) && (parent[p] in want)) { want[p] = 1; grew = 1 } } while (grew)
        for (p in want) print p }'
    }
    same_cgroup() { for p in "$@"; do [ "$(cat /proc/$p/cgroup 2>/dev/null)" = "$CGROUP" ] && echo $p; done; }
    first=$(same_cgroup $(tree "$ROOT")); kill -STOP $first 2>/dev/null
    all=$(same_cgroup $(tree "$ROOT")); kill -STOP $all 2>/dev/null
    kill -KILL $first $all 2>/dev/null
  `;
  const killer = spawn('/bin/bash', ['-c', script], {
    detached: true,
    stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ROOT: String(process.pid), CGROUP: cgroup },
  });
  killer.unref();
}
