// Runs ansible-playbook in a directory of its own per job: inventory, vars and artifacts
// (screen output and JSON-lines events) live there. Results are read from the events
// that the project's basalt_events callback writes, never from the screen output.
import fs from 'node:fs/promises';
import path from 'node:path';
import { outputTail, runCommand } from '../process.js';
import { StepError } from '../errors.js';
import { unsafeVarsYaml } from './vars-file.js';

export interface AnsibleEvent {
  event: string;
  time: number;
  host?: string;
  task?: string;
  action?: string;
  changed?: boolean;
  handler?: boolean;
  result?: Record<string, unknown>;
  hosts?: Record<string, HostStats>;
}

export interface HostStats {
  ok: number;
  changed: number;
  unreachable: number;
  failures: number;
  skipped: number;
  rescued: number;
  ignored: number;
}

export interface PlaybookRun {
  /** infra/ansible: holds ansible.cfg, the playbooks and the roles. */
  ansibleDir: string;
  playbook: string;
  runDir: string;
  inventory: Record<string, unknown>;
  /**
   * Written to a 0600 file that is removed after the run (it may hold passwords), every
   * string marked `!unsafe`: data that Ansible substitutes but never evaluates.
   */
  extraVars: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  onEvent?: (event: AnsibleEvent) => void;
}

export interface PlaybookResult {
  exitCode: number | null;
  events: AnsibleEvent[];
  stats: Record<string, HostStats>;
  /** Tasks that reported a change, over all hosts. */
  changed: number;
}

export async function runPlaybook(run: PlaybookRun): Promise<PlaybookResult> {
  const artifacts = path.join(run.runDir, 'artifacts');
  await fs.mkdir(artifacts, { recursive: true });
  const inventoryFile = path.join(run.runDir, 'inventory.json');
  const varsFile = path.join(run.runDir, 'vars.yml');
  const eventsFile = path.join(artifacts, 'events.jsonl');
  await fs.writeFile(inventoryFile, JSON.stringify(run.inventory, null, 2));
  await fs.writeFile(varsFile, unsafeVarsYaml(run.extraVars), { mode: 0o600 });
  await fs.rm(eventsFile, { force: true });

  let result;
  try {
    result = await runCommand(
      'ansible-playbook',
      ['-i', inventoryFile, '-e', `@${varsFile}`, path.join(run.ansibleDir, 'playbooks', run.playbook)],
      {
        cwd: run.ansibleDir,
        env: {
          ...run.env,
          ANSIBLE_CONFIG: path.join(run.ansibleDir, 'ansible.cfg'),
          ANSIBLE_NOCOLOR: '1',
          ANSIBLE_FORCE_COLOR: '0',
          BASALT_EVENTS_FILE: eventsFile,
        },
        timeoutMs: run.timeoutMs ?? 10 * 60_000,
      },
    );
  } finally {
    await fs.rm(varsFile, { force: true });
  }
  await fs.writeFile(path.join(artifacts, 'stdout.log'), result.stdout + result.stderr);

  const events = await readEvents(eventsFile);
  for (const event of events) run.onEvent?.(event);
  const stats = events.filter((e) => e.event === 'stats').pop()?.hosts ?? {};
  const changed = Object.values(stats).reduce((sum, host) => sum + host.changed, 0);

  if (result.exitCode !== 0) {
    const failure = events.find((e) => e.event === 'runner_on_failed' || e.event === 'runner_on_unreachable');
    const unreachable = failure?.event === 'runner_on_unreachable';
    const reason = failure
      ? `${failure.host}: ${failure.task}: ${String(failure.result?.msg ?? 'failed')}`
      : outputTail(result.stderr || result.stdout, 3);
    throw new StepError(
      'ansible',
      `ansible-playbook ${run.playbook} exited with ${result.exitCode ?? result.signal}: ${reason}`,
      result.exitCode,
      outputTail(result.stdout + '\n' + result.stderr),
      unreachable,
    );
  }
  return { exitCode: result.exitCode, events, stats, changed };
}

async function readEvents(file: string): Promise<AnsibleEvent[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const events: AnsibleEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line) as AnsibleEvent);
    } catch {
      // A line cut short by a killed run says nothing reliable; skip it.
    }
  }
  return events;
}
