// The test suites of every part of the repository, each run and counted the same way:
// a suite returns {passed, failed, skipped, notes, files?}. The runner adds them up.
// `quick` marks the suites of the edit-test loop (`npm test -- --quick`): no VM, no platform
// stack, no compatibility suite; a suite that has a VM-free part runs only that part there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINE_DIR, PROVIDER_DIR, ROOT, ANSIBLE_VENV } from './paths.mjs';
import { runAsync, tail } from './proc.mjs';
import { workspaces } from './workspaces.mjs';

// The e2e workspace's groups (e2e/support/e2e-groups.ts), each a lane: `parallel` from the start,
// beside the other suites; `ha` and `load` beside each other once `parallel` is done.
const E2E_LANES = [['parallel', []], ['ha', ['e2e-parallel']], ['load', ['e2e-parallel']]];

/**
 * A suite runs in a lane: the lanes run beside each other, the suites of a lane one after
 * another, and a lane starts once the lanes it comes `after` are done. Suites with no lane of
 * their own share `units`, which runs from the start.
 */
export function vitestSuites(ws) {
  if (ws.name !== '@basalt/e2e') return [{ name: `vitest ${ws.name}`, quick: true, run: (env, opts) => vitestRun(ws, env, opts?.prefix) }];
  // The e2e workspace starts the platform, VMs and a browser: a whole-system suite.
  return E2E_LANES.map(([group, after]) => ({
    name: `vitest ${ws.name} (${group})`,
    quick: false,
    lane: `e2e-${group}`,
    after,
    run: (env, opts) => vitestRun(ws, { ...env, BASALT_E2E_GROUP: group }, opts?.prefix),
  }));
}

/** One `vitest run` of a workspace, counted from its JSON report. */
async function vitestRun(ws, env, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-vitest-'));
  const report = path.join(dir, 'report.json');
  const r = await runAsync('npm', ['run', 'test', '-w', ws.name, '--', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { cwd: ROOT, env, prefix });
  const j = fs.existsSync(report) ? JSON.parse(fs.readFileSync(report, 'utf8')) : undefined;
  fs.rmSync(dir, { recursive: true, force: true });
  const group = env.BASALT_E2E_GROUP ? ` (${env.BASALT_E2E_GROUP})` : '';
  if (!j) return { passed: 0, failed: 1, skipped: 0, notes: [`${ws.name}${group}: vitest wrote no report (exit ${r.code})`], files: [] };
  // A file that failed to load counts as a failure even though none of its tests ran.
  const brokenFiles = (j.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
  const failed = j.numFailedTests + brokenFiles + (r.code !== 0 && j.numFailedTests + brokenFiles === 0 ? 1 : 0);
  return { passed: j.numPassedTests, failed, skipped: j.numPendingTests + j.numTodoTests, notes: failedVitestTests(j), files: fileSeconds(j) };
}

/** Each failed test (or file that did not load) by file and name, with its first message lines:
 * the summary is often all a CI log keeps. */
function failedVitestTests(report) {
  const notes = [];
  for (const file of report.testResults ?? []) {
    const rel = path.relative(ROOT, file.name);
    const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failedTests.length === 0) notes.push(`${rel}: ${firstLines(file.message ?? 'failed to load')}`);
    for (const test of failedTests) notes.push(`${rel} › ${test.fullName}\n${firstLines((test.failureMessages ?? []).join('\n'))}`);
  }
  return notes;
}

/** Each test file's own wall-clock seconds, from the report's start and end times. */
function fileSeconds(report) {
  return (report.testResults ?? [])
    .map((file) => ({ name: path.relative(ROOT, file.name), seconds: Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)) / 1000 }));
}

const firstLines = (text, lines = 6) => text.split('\n').slice(0, lines).join('\n');

export const cargoSuite = {
  name: 'cargo test (engine)',
  quick: true,
  enabled: () => fs.existsSync(path.join(ENGINE_DIR, 'Cargo.toml')),
  async run(env, { prefix } = {}) {
    const r = await runAsync('cargo', ['test', '--release', '--workspace'], { cwd: ENGINE_DIR, env, prefix });
    let passed = 0, failed = 0, skipped = 0;
    for (const m of r.out.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g)) {
      passed += Number(m[1]); failed += Number(m[2]); skipped += Number(m[3]);
    }
    if (r.code !== 0 && failed === 0) failed = 1; // a build error counts
    return { passed, failed, skipped };
  },
};

export const goSuite = {
  name: 'go test (terraform provider)',
  quick: true,
  enabled: () => fs.existsSync(path.join(PROVIDER_DIR, 'go.mod')),
  async run(env, { quick, prefix } = {}) {
    const say = (text) => console.log(text.split('\n').map((l) => `${prefix ?? ''}${l}`).join('\n'));
    const vet = await runAsync('go', ['vet', './...'], { cwd: PROVIDER_DIR, env });
    if (vet.code !== 0) {
      say(tail(vet.out));
      return { passed: 0, failed: 1, skipped: 0, notes: [`go vet:\n${tail(vet.out)}`] };
    }
    // TF_ACC runs the acceptance tests too: they start their own API and worker on a database of
    // their own in DATABASE_URL's cluster and drive the repository's Terraform. A few real
    // instances take minutes, hence the timeout above go test's default 10. Without TF_ACC
    // (--quick) they are skipped, as terraform-plugin-testing skips them, and counted so.
    const accEnv = quick ? env : { ...env, TF_ACC: '1', TF_ACC_TERRAFORM_PATH: path.join(ROOT, '.tools', 'bin', 'terraform') };
    const r = await runAsync('go', ['test', '-json', '-timeout', '30m', './...'], { cwd: PROVIDER_DIR, env: accEnv });
    let passed = 0, failed = 0, skipped = 0;
    // Each test's own output, so that a failure says which test and why.
    const output = new Map();
    const failures = [];
    for (const line of r.out.split('\n')) {
      if (!line.startsWith('{')) continue;
      const ev = JSON.parse(line);
      if (!ev.Test) continue;
      if (ev.Action === 'output') output.set(ev.Test, (output.get(ev.Test) ?? '') + ev.Output);
      else if (ev.Action === 'pass') passed++;
      else if (ev.Action === 'fail') { failed++; failures.push(ev.Test); }
      else if (ev.Action === 'skip') skipped++;
    }
    for (const name of failures) say(`--- FAIL ${name}\n${tail(output.get(name) ?? '', 40)}`);
    if (r.code !== 0 && failed === 0) { failed = 1; say(tail(r.out)); }
    say(`go test: ${passed} passed, ${failed} failed, ${skipped} skipped`);
    return { passed, failed, skipped };
  },
};

/** Directories under infra/terraform holding .tf files, i.e. modules to format and validate. */
function terraformModules() {
  const base = path.join(ROOT, 'infra', 'terraform');
  const found = [];
  const visit = (dir) => {
    if (!fs.existsSync(dir)) return;
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name.endsWith('.tf'))) found.push(dir);
    for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) visit(path.join(dir, e.name));
  };
  visit(base);
  return found;
}

// A module whose providers come from a registry cannot be initialised offline; only Terraform's
// built-in provider is available here, so such a module is formatted but not validated.
function needsRegistryProvider(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.tf'))
    .some((f) => /required_providers\s*{[^}]*source\s*=/.test(fs.readFileSync(path.join(dir, f), 'utf8')));
}

export const terraformSuite = {
  name: 'terraform fmt + validate (infra/terraform)',
  quick: true,
  enabled: () => terraformModules().length > 0,
  async run(env, { prefix = '' } = {}) {
    let passed = 0, failed = 0, skipped = 0;
    const notes = [];
    const fmt = await runAsync('terraform', ['fmt', '-check', '-recursive', '-diff', path.join(ROOT, 'infra', 'terraform')], { env });
    if (fmt.code === 0) passed++; else { failed++; notes.push(`terraform fmt -check:\n${tail(fmt.out)}`); }
    for (const dir of terraformModules()) {
      const rel = path.relative(ROOT, dir);
      if (needsRegistryProvider(dir)) { skipped++; console.log(`${prefix}terraform validate ${rel}: skipped (needs a registry provider)`); continue; }
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tf-'));
      const tfEnv = { ...env, TF_DATA_DIR: dataDir };
      const init = await runAsync('terraform', ['init', '-backend=false', '-input=false', '-no-color'], { cwd: dir, env: tfEnv });
      const v = init.code === 0 ? await runAsync('terraform', ['validate', '-no-color', '-json'], { cwd: dir, env: tfEnv }) : init;
      fs.rmSync(dataDir, { recursive: true, force: true });
      const ok = v.code === 0 && init.code === 0;
      console.log(`${prefix}terraform validate ${rel}: ${ok ? 'ok' : 'FAILED'}`);
      if (ok) passed++; else { failed++; notes.push(`terraform validate ${rel}:\n${tail(v.out)}`); }
    }
    return { passed, failed, skipped, notes };
  },
};

export const ansibleSuite = {
  name: 'ansible syntax-check + lint (infra/ansible)',
  quick: true,
  enabled: () => fs.existsSync(path.join(ROOT, 'infra', 'ansible', 'playbooks')),
  async run(env, { prefix = '' } = {}) {
    const dir = path.join(ROOT, 'infra', 'ansible');
    let passed = 0, failed = 0, skipped = 0;
    const notes = [];
    const playbooks = fs.readdirSync(path.join(dir, 'playbooks')).filter((f) => f.endsWith('.yml'));
    for (const pb of playbooks) {
      const r = await runAsync(path.join(ANSIBLE_VENV, 'bin', 'ansible-playbook'), ['--syntax-check', '-i', 'localhost,', path.join('playbooks', pb)], { cwd: dir, env });
      console.log(`${prefix}ansible-playbook --syntax-check playbooks/${pb}: ${r.code === 0 ? 'ok' : 'FAILED'}`);
      if (r.code === 0) passed++; else { failed++; notes.push(`syntax-check ${pb}:\n${tail(r.out)}`); }
    }
    const lint = path.join(ANSIBLE_VENV, 'bin', 'ansible-lint');
    if (fs.existsSync(lint)) {
      const r = await runAsync(lint, ['--offline', '-q'], { cwd: dir, env });
      console.log(`${prefix}ansible-lint: ${r.code === 0 ? 'ok' : 'FAILED'}`);
      if (r.code === 0) passed++; else { failed++; notes.push(`ansible-lint:\n${tail(r.out, 30)}`); }
    } else {
      skipped++;
      console.log(`${prefix}ansible-lint: not installed, skipped`);
    }
    return { passed, failed, skipped, notes };
  },
};

/**
 * Redis 7.0's own Tcl tests against basalt-server (engine/compat/redis-suite.mjs): every test
 * that passes counts; a test of the committed expected list that does not pass fails the run.
 */
export const redisTclSuite = {
  name: 'redis 7.0 tcl suite (engine compatibility)',
  enabled: () => fs.existsSync(path.join(ROOT, 'engine', 'compat', 'redis-suite.mjs')),
  async run(env, { prefix } = {}) {
    const r = await runAsync(process.execPath, [path.join(ROOT, 'engine', 'compat', 'redis-suite.mjs')], { cwd: ROOT, env, prefix });
    const passed = [...r.out.matchAll(/^unit\/\S+\s+(\d+) passed/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    const regressions = Number(/redis-suite: (\d+) expected test\(s\) did not pass/.exec(r.out)?.[1] ?? 0);
    if (r.code === 0) return { passed, failed: 0, skipped: 0 };
    // Exit 2: the suite could not run (no Redis source, no tclsh); 1: expected tests failed.
    const failed = regressions || 1;
    return { passed, failed, skipped: 0, notes: [tail(r.out, 40)] };
  },
};

/** Extra checks a part registers as an executable script (e.g. the API fuzzer): exit 0 passes. */
export function scriptSuite(name, file) {
  return {
    name,
    enabled: () => fs.existsSync(file),
    async run(env, { prefix } = {}) {
      const r = await runAsync(file, [], { cwd: ROOT, env, prefix });
      return r.code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, notes: [`${name} exited ${r.code}`] };
    },
  };
}

export function allSuites() {
  const vitest = workspaces().filter((ws) => ws.scripts.test).flatMap(vitestSuites);
  return [
    ...vitest,
    cargoSuite,
    redisTclSuite,
    goSuite,
    terraformSuite,
    ansibleSuite,
    scriptSuite('schemathesis fuzz of the API', path.join(ROOT, 'services', 'api', 'scripts', 'fuzz.sh')),
  ].filter((s) => !s.enabled || s.enabled());
}
