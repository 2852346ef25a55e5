// Every process the worker starts (Terraform, Ansible, probes, benchmark clients and servers)
// dies with it, however the worker ends — a SIGKILL included, which leaves it no moment to
// clean up: util-linux's setpriv asks the kernel to signal the child when its parent dies
// (PR_SET_PDEATHSIG, kept across the child's own execs). Without it a killed worker's
// `terraform apply` went on beside the next worker's retry of the same operation. What a
// killed child leaves (a half-applied stack, a namespace) the retry converges; the VMs
// themselves run in sessions of their own (vm-lib.sh, supervise.sh) and are not touched.
import fs from 'node:fs';

const SETPRIV = '/usr/bin/setpriv';
const available = fs.existsSync(SETPRIV);

export interface Command {
  file: string;
  args: string[];
}

/** `file args…` run so that the kernel SIGKILLs it when the worker dies (a process with no children of its own). */
export function diesWithWorker(file: string, args: string[]): Command {
  return available ? { file: SETPRIV, args: ['--pdeathsig', 'KILL', '--', file, ...args] } : { file, args };
}

/**
 * The tools whose own children matter (Terraform's providers and local-exec scripts, Ansible's
 * forks and ssh) run under a bash of their own process group (spawn it `detached`): a SIGTERM
 * to that bash — the worker dying, or a timeout — goes to the whole group, and 3 s later a
 * SIGKILL ends what is left. The exit status is the tool's (128 + N when a signal ended it).
 */
const GROUP_KEEPER = `trap 'trap "" TERM; kill -TERM 0 2>/dev/null; sleep 3; kill -KILL 0' TERM; "$@" & wait $!`;

export function groupDiesWithWorker(file: string, args: string[]): Command {
  return available
    ? { file: SETPRIV, args: ['--pdeathsig', 'TERM', '--', '/bin/bash', '-c', GROUP_KEEPER, 'basalt-child', file, ...args] }
    : { file, args };
}
