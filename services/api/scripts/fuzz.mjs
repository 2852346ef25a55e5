// Orchestrates one bounded schemathesis run: a fresh database, the built API on a free port with
// rate limiting off, an API key, a project and an instance to aim path parameters at, then
// `st run` with positive and negative inputs and the not_a_server_error check.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import pg from 'pg';

const [st, ...extraArgs] = process.argv.slice(2);
const apiRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(apiRoot, '../..');
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error('fuzz: DATABASE_URL must point at a PostgreSQL superuser');
  process.exit(2);
}
const maxExamples = process.env.BASALT_FUZZ_EXAMPLES ?? '50';

function build() {
  const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
  for (const [dir, entry, config] of [
    ['packages/db', 'dist/index.js', 'tsconfig.json'],
    ['services/api', 'dist/main.js', 'tsconfig.build.json'],
  ]) {
    if (!existsSync(path.join(repoRoot, dir, entry))) execFileSync(process.execPath, [tsc, '-p', path.join(repoRoot, dir, config)], { stdio: 'inherit' });
  }
}

async function sql(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

build();
const dbName = `basalt_fuzz_${randomBytes(5).toString('hex')}`;
await sql(adminUrl, `CREATE DATABASE ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
// The spec and the run's API key, in a directory only this user can read.
const runDir = mkdtempSync(path.join(tmpdir(), `${dbName}-`));
const specFile = path.join(runDir, 'openapi.json');
const keyFile = path.join(runDir, 'api-key');
const adminPassword = `fuzz-${randomBytes(8).toString('hex')}`;
let output = '';
const api = spawn(process.execPath, [path.join(apiRoot, 'dist/main.js')], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    BASALT_API_PORT: '0',
    BASALT_API_HOST: '127.0.0.1',
    BASALT_ADMIN_EMAIL: 'fuzz@example.com',
    BASALT_ADMIN_PASSWORD: adminPassword,
    BASALT_MASTER_KEY: randomBytes(32).toString('base64'),
    BASALT_RATE_LIMIT_RPS: '0',
    BASALT_LOGIN_ATTEMPTS_PER_MINUTE: '0',
    NO_COLOR: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
api.stdout.on('data', (c) => (output += c));
api.stderr.on('data', (c) => (output += c));

let code = 1;
try {
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start:\n${output}`)), 60_000);
    const check = setInterval(() => {
      const m = /listening on port (\d+)/.exec(output);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    }, 100);
    api.on('exit', (c) => reject(new Error(`API exited with ${c}:\n${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, route, body, headers = {}) => {
    const r = await fetch(base + route, { method, headers: { 'content-type': 'application/json', ...headers }, body: body && JSON.stringify(body) });
    return { response: r, data: await r.json().catch(() => null) };
  };
  const login = await call('POST', '/v1/auth/login', { email: 'fuzz@example.com', password: adminPassword });
  const cookie = login.response.headers.get('set-cookie').split(';')[0];
  const key = (await call('POST', '/v1/api-keys', { name: 'fuzz' }, { cookie })).data.key;
  const auth = { authorization: `Bearer ${key}` };
  const project = (await call('POST', '/v1/projects', { name: 'fuzz' }, auth)).data.id;
  const instance = (await call('POST', `/v1/projects/${project}/instances`, { name: 'fuzz-target', instance_type: 'kv.standard.small', region: 'local' }, auth)).data.instance.id;

  // Aim {project} and {instance} at real rows so the fuzzer reaches past the 404s into the
  // services: a copy of the spec with those path parameters filled in.
  const spec = await (await fetch(`${base}/v1/openapi.json`)).json();
  const paths = {};
  for (const [route, item] of Object.entries(spec.paths)) {
    const filled = route.replace('{project}', project).replace('{instance}', instance);
    for (const operation of Object.values(item)) {
      if (operation && Array.isArray(operation.parameters)) {
        operation.parameters = operation.parameters.filter((p) => !(p.in === 'path' && (p.name === 'project' || p.name === 'instance')));
      }
    }
    paths[filled] = item;
  }
  spec.paths = paths;
  writeFileSync(specFile, JSON.stringify(spec));
  writeFileSync(keyFile, key, { mode: 0o600 });

  const args = [
    'run', specFile,
    '--base-url', base,
    '--checks', 'not_a_server_error',
    '--data-generation-method', 'all',
    '--hypothesis-max-examples', maxExamples,
    '--hypothesis-phases', 'explicit,generate',
    '--hypothesis-deadline', 'None',
    '--hypothesis-seed', process.env.BASALT_FUZZ_SEED ?? '20261122',
    '--request-timeout', '10000',
    '--workers', '2',
    '--hypothesis-suppress-health-check', 'filter_too_much,too_slow,data_too_large',
    // The event stream stays open until its operation ends; it is covered by the Vitest suite.
    '--exclude-path-regex', 'events$',
    ...extraArgs,
  ];
  console.log(`fuzz: ${path.basename(st)} ${args.join(' ')}`);
  code = await new Promise((resolve) => {
    // The key reaches schemathesis through its auth hook (fuzz_auth.py reads keyFile), never the
    // command line or the environment. schemathesis echoes headers in tracebacks: mask them.
    const env = { ...process.env, SCHEMATHESIS_HOOKS: 'fuzz_auth', PYTHONPATH: path.join(apiRoot, 'scripts'), BASALT_FUZZ_KEY_FILE: keyFile };
    const run = spawn(st, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const mask = (target) => (chunk) => target.write(chunk.toString().replaceAll(key, '<api key>'));
    run.stdout.on('data', mask(process.stdout));
    run.stderr.on('data', mask(process.stderr));
    run.on('close', (c) => resolve(c ?? 1));
  });
  const apiErrors = output.split('\n').filter((line) => /ERROR|Error:/.test(line));
  if (apiErrors.length) console.error(`fuzz: the API logged errors:\n${apiErrors.slice(0, 30).join('\n')}`);
} catch (error) {
  console.error(`fuzz: ${error.message}`);
  code = 1;
} finally {
  api.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await sql(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  rmSync(runDir, { recursive: true, force: true });
}
console.log(code === 0 ? 'fuzz: 1 passed, 0 failed (no 5xx)' : 'fuzz: 0 passed, 1 failed');
process.exit(code);
