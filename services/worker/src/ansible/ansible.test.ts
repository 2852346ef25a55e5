// Runs the real ansible-playbook (local connection) with the project's events callback,
// in a run directory of its own, and reads the outcome from the events.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StepError } from '../errors.js';
import { runPlaybook, type PlaybookRun } from './ansible.js';

const callbackPlugins = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../infra/ansible/callback_plugins',
);

let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-ansible-'));
  await fs.mkdir(path.join(dir, 'ansible', 'playbooks'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'ansible', 'ansible.cfg'),
    `[defaults]\ncallback_plugins = ${callbackPlugins}\ncallbacks_enabled = basalt_events\ngathering = explicit\n`,
  );
  await fs.writeFile(
    path.join(dir, 'ansible', 'playbooks', 'write.yml'),
    `- name: Write a file
  hosts: engine
  tasks:
    - name: Write the marker file
      ansible.builtin.copy:
        content: "{{ marker }}"
        dest: "{{ target }}"
        mode: "0600"
    - name: Keep a secret out of the events
      ansible.builtin.debug:
        msg: "{{ secret }}"
      no_log: true
`,
  );
  await fs.writeFile(
    path.join(dir, 'ansible', 'playbooks', 'fail.yml'),
    `- name: Fail
  hosts: engine
  tasks:
    - name: Refuse to go on
      ansible.builtin.fail:
        msg: the engine did not answer
`,
  );
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function run(playbook: string, runName: string): PlaybookRun {
  return {
    ansibleDir: path.join(dir, 'ansible'),
    playbook,
    runDir: path.join(dir, 'runs', runName),
    inventory: {
      all: {
        children: {
          engine: { hosts: { node0: { ansible_connection: 'local', ansible_python_interpreter: '/usr/bin/python3' } } },
        },
      },
    },
    extraVars: { marker: 'hello', target: path.join(dir, 'marker.txt'), secret: 's3cret-value' },
    env: process.env,
  };
}

describe('ansible-playbook runs', () => {
  it('reports a change on the first run and none on the second, from events', async () => {
    const first = await runPlaybook(run('write.yml', 'first'));
    expect(first.exitCode).toBe(0);
    expect(first.stats.node0).toMatchObject({ changed: 1, failures: 0 });
    expect(first.events.some((e) => e.event === 'runner_on_ok' && e.task === 'Write the marker file' && e.changed)).toBe(true);
    expect(await fs.readFile(path.join(dir, 'marker.txt'), 'utf8')).toBe('hello');

    const second = await runPlaybook(run('write.yml', 'second'));
    expect(second.changed).toBe(0);
  });

  it('keeps secrets out of the run directory', async () => {
    const runDir = path.join(dir, 'runs', 'first');
    await expect(fs.access(path.join(runDir, 'vars.yml'))).rejects.toThrow();
    const events = await fs.readFile(path.join(runDir, 'artifacts', 'events.jsonl'), 'utf8');
    expect(events).not.toContain('s3cret-value');
    expect(await fs.readFile(path.join(runDir, 'inventory.json'), 'utf8')).toContain('node0');
  });

  it('passes every value as data: a template, a shell word or a line break in it is never evaluated', async () => {
    const pwned = path.join(dir, 'pwned');
    const payloads = [
      `{{ lookup('pipe', 'touch ${pwned}-lookup') }}`,
      `{{lookup(dict(pipe=1)|first,dict(id=1)|first)}}xx`,
      `{% for x in [1] %}{{ x }}{% endfor %}{{7*7}}`,
      `$(touch ${pwned}-subshell)\`touch ${pwned}-backtick\`; touch ${pwned}-semicolon`,
      `line one\nline two\r\n"quoted" 'single' \\ %s %(x)s %{x} #{x} \u2028 \u0085 é 🔑 ~* +@all >pw #abc`,
    ];
    for (const [index, payload] of payloads.entries()) {
      const target = path.join(dir, `payload-${index}.txt`);
      const result = await runPlaybook({ ...run('write.yml', `payload-${index}`), extraVars: { marker: payload, target, secret: payload } });
      expect(result.exitCode).toBe(0);
      expect(await fs.readFile(target, 'utf8')).toBe(payload);
    }
    for (const suffix of ['lookup', 'subshell', 'backtick', 'semicolon']) {
      await expect(fs.access(`${pwned}-${suffix}`)).rejects.toThrow();
    }
  });

  it('fails with the failing task and its message', async () => {
    const error = await runPlaybook(run('fail.yml', 'failing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    const fault = (error as StepError).toFault();
    expect(fault.step).toBe('ansible');
    expect(fault.exit_code).toBe(2);
    expect(fault.message).toContain('Refuse to go on: the engine did not answer');
  });
});
