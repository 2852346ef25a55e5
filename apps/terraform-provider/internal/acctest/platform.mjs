// The Basalt platform an acceptance test run talks to: a database of its own in DATABASE_URL's
// cluster, a data dir of its own, API + worker started as `npm start` starts them
// (scripts/lib/platform.mjs), an admin, a project and an API key made through the API.
// Prints one JSON line {endpoint, api_key, project, data_dir} on stdout, then runs until its
// stdin closes (the Go test ending, or dying) or SIGTERM; then deletes the instances left in the
// project through the API, stops the processes, drops the database and removes the data dir.
//
//   node platform.mjs [--broken-vm-image]
// --broken-vm-image: the worker's VM image does not exist, so every create fails inside
// `terraform apply` (the failing-create test).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const { startPlatform } = await import(path.join(ROOT, 'scripts', 'lib', 'platform.mjs'));
const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
const { leaseAddressRange } = await import(path.join(ROOT, 'scripts', 'lib', 'address-range.mjs'));
// This platform's worker hands out addresses no other stack on the host holds.
process.env.BASALT_ADDRESS_RANGE ??= leaseAddressRange();
const pg = createRequire(path.join(ROOT, 'package.json'))('pg');

const broken = process.argv.includes('--broken-vm-image');
const log = (msg) => process.stderr.write(`acctest platform: ${msg}\n`);

if (!process.env.DATABASE_URL) {
  log('DATABASE_URL is not set (a PostgreSQL superuser URL; the test creates its own database in it)');
  process.exit(2);
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const dbName = `tfacc_${crypto.randomBytes(4).toString('hex')}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tfacc-'));
const dbUrl = new URL(process.env.DATABASE_URL);
dbUrl.pathname = `/${dbName}`;
if (broken) {
  process.env.BASALT_VM_IMAGE = path.join(dataDir, 'no-such-image');
  process.env.BASALT_LOCAL_VM_KIND = 'nspawn';
}

let platform;
let session;
let project;
let cleaning = false;

async function api(method, route, body, headers = {}) {
  const res = await fetch(`${platform.apiUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers, ...(session ? { cookie: session } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** Deletes every instance the tests left in the project and waits until each is deleted. */
async function deleteLeftInstances() {
  if (!platform || !project) return;
  const list = await api('GET', `/v1/projects/${project}/instances`);
  const left = list.body?.items ?? [];
  for (const { id, deletion_protection } of left) {
    if (deletion_protection) await api('PATCH', `/v1/projects/${project}/instances/${id}`, { deletion_protection: false });
    await api('DELETE', `/v1/projects/${project}/instances/${id}`);
  }
  const deadline = Date.now() + 240_000;
  for (const { id } of left) {
    while (Date.now() < deadline) {
      const got = await api('GET', `/v1/projects/${project}/instances/${id}`);
      if (got.status === 404 || got.body?.status === 'deleted') break;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  if (left.length) log(`deleted ${left.length} instance(s) the tests left`);
}

/** Keeps the API's and worker's logs after the data dir goes, to find out why a test failed. */
function keepLogs() {
  const logs = path.join(dataDir, 'logs');
  if (!fs.existsSync(logs)) return;
  const kept = path.join(os.tmpdir(), 'basalt-tfacc-logs', dbName);
  fs.cpSync(logs, kept, { recursive: true });
  log(`logs of the API and worker kept in ${kept}`);
}

async function cleanup(code) {
  if (cleaning) return;
  cleaning = true;
  await deleteLeftInstances().catch((err) => log(`cleanup: ${err.message}`));
  await platform?.stop().catch(() => {});
  try {
    keepLogs();
  } catch (err) {
    log(`keeping the logs: ${err.message}`);
  }
  await adminQuery(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch((err) => log(`drop database: ${err.message}`));
  const vms = path.join(dataDir, 'vms');
  if (fs.existsSync(vms) && fs.readdirSync(vms).length > 0) log(`leaving ${dataDir}: VMs still in it`);
  else fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGTERM', () => cleanup(0));
process.on('SIGINT', () => cleanup(0));
process.stdin.on('end', () => cleanup(0));
process.stdin.on('error', () => cleanup(0));
process.stdin.resume();

try {
  await adminQuery(`CREATE DATABASE "${dbName}"`);
  const admin = { email: 'admin@tfacc.test', password: `pw-${crypto.randomBytes(12).toString('hex')}` };
  platform = await startPlatform({
    dataDir,
    databaseUrl: dbUrl.toString(),
    apiPort: await freePort(),
    consolePort: await freePort(),
    secrets: { adminEmail: admin.email, adminPassword: admin.password, masterKey: crypto.randomBytes(32).toString('base64') },
    worker: true,
    console: false,
  });
  const login = await api('POST', '/v1/auth/login', admin);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  session = (login.headers.get('set-cookie') ?? '').split(';')[0];
  project = login.body.projects[0].id;
  const key = await api('POST', '/v1/api-keys', { name: 'terraform acceptance tests' });
  if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
  process.stdout.write(`${JSON.stringify({ endpoint: platform.apiUrl, api_key: key.body.key, project, data_dir: dataDir })}\n`);
  log(`up at ${platform.apiUrl} (database ${dbName}, data ${dataDir}${broken ? ', broken VM image' : ''})`);
} catch (err) {
  log(`failed to start: ${err.message}`);
  await cleanup(1);
}
