// Python venvs under .tools: ansible-core for deployments, the real Python clients tests use,
// and schemathesis for the API fuzzer.
import fs from 'node:fs';
import path from 'node:path';
import { ANSIBLE_VENV, FUZZ_VENV, PY_VENV, ROOT } from '../lib/paths.mjs';
import { run, runAsync, tail } from '../lib/proc.mjs';
import { hashInputs, stampMatches, writeStamp } from '../lib/stamp.mjs';

// /usr/bin/python3 rather than a pyenv shim: the venv must not depend on a shell's pyenv setup.
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

async function ensureVenv(dir, requirements, stampName) {
  const hash = hashInputs([requirements], PYTHON);
  const pip = path.join(dir, 'bin', 'pip');
  // A venv made over by another Python (a pyenv shim, say) can lose ssl; such a venv is rebuilt.
  const sound = fs.existsSync(pip) && run(path.join(dir, 'bin', 'python'), ['-c', 'import ssl']).code === 0;
  if (!sound) fs.rmSync(dir, { recursive: true, force: true });
  if (sound && stampMatches(stampName, hash)) return 'ready';
  if (!fs.existsSync(pip)) {
    const v = run(PYTHON, ['-m', 'venv', dir]);
    if (v.code !== 0) throw new Error(`python3 -m venv ${dir} failed (install python3-venv): ${tail(v.out, 3)}`);
  }
  const r = await runAsync(pip, ['install', '-q', '-r', requirements]);
  if (r.code !== 0) throw new Error(`pip install -r ${path.relative(ROOT, requirements)} failed:\n${tail(r.out)}`);
  writeStamp(stampName, hash);
  return 'installed';
}

export async function ansible() {
  const status = await ensureVenv(ANSIBLE_VENV, path.join(ROOT, 'scripts', 'requirements-ansible.txt'), 'ansible');
  const v = run(path.join(ANSIBLE_VENV, 'bin', 'ansible-playbook'), ['--version']);
  if (v.code !== 0) throw new Error(`ansible-playbook --version failed: ${tail(v.out, 3)}`);
  // ansible-lint is a nice-to-have: its absence is reported, not fatal.
  const lintStamp = 'ansible-lint';
  const lint = path.join(ANSIBLE_VENV, 'bin', 'ansible-lint');
  if (!fs.existsSync(lint) && !stampMatches(lintStamp, 'tried')) {
    await runAsync(path.join(ANSIBLE_VENV, 'bin', 'pip'), ['install', '-q', 'ansible-lint']);
    writeStamp(lintStamp, 'tried');
  }
  return `${status} (${v.out.split('\n')[0].trim()}${fs.existsSync(lint) ? ', ansible-lint' : ''})`;
}

export async function pythonClients() {
  return ensureVenv(PY_VENV, path.join(ROOT, 'scripts', 'requirements-test.txt'), 'py-clients');
}

export async function apiFuzzer() {
  return ensureVenv(FUZZ_VENV, path.join(ROOT, 'services', 'api', 'scripts', 'fuzz-requirements.txt'), 'fuzz-py');
}
