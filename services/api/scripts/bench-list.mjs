// Benchmark of the instance list: 10,000 instances in one project, then autocannon at a fixed
// 200 requests/s on loopback against GET /v1/projects/{p}/instances (first page, default sort).
// Usage: DATABASE_URL=postgres://... [BASALT_API_WORKERS=2] node services/api/scripts/bench-list.mjs [--rate 200] [--duration 30]
//        [--connections 10] [--warmup 3000]
// Needs a built API (npm run build -w @basalt/api). Exits 1 when p99 is not under 50 ms.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    duration: { type: 'string', default: '30' },
    instances: { type: 'string', default: '10000' },
    // autocannon's own default; its overallRate sends each connection's share back to back at the
    // start of every second, so this many requests are in flight during each burst.
    connections: { type: 'string', default: '10' },
    query: { type: 'string', default: '' },
    warmup: { type: 'string', default: '3000' },
  },
});
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) throw new Error('DATABASE_URL must point at a PostgreSQL superuser');
const mainJs = fileURLToPath(new URL('../dist/main.js', import.meta.url));

async function sql(url, text, params) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

const dbName = `basalt_bench_${randomBytes(5).toString('hex')}`;
await sql(adminUrl, `CREATE DATABASE ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const password = `bench-${randomBytes(8).toString('hex')}`;
let output = '';
const api = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), mainJs], {
  env: {
    ...process.env,
    DATABASE_URL: dbUrl.toString(),
    BASALT_API_PORT: '0',
    BASALT_API_HOST: '127.0.0.1',
    BASALT_ADMIN_EMAIL: 'bench@example.com',
    BASALT_ADMIN_PASSWORD: password,
    BASALT_MASTER_KEY: randomBytes(32).toString('base64'),
    BASALT_RATE_LIMIT_RPS: '0',
    NO_COLOR: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
api.stdout.on('data', (c) => (output += c));
api.stderr.on('data', (c) => (output += c));

try {
  const port = await new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on port (\d+)/.exec(output);
      if (m) {
        clearInterval(timer);
        resolve(Number(m[1]));
      }
    }, 100);
    api.on('exit', (c) => reject(new Error(`API exited with ${c}:\n${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password }) });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const key = (await (await fetch(`${base}/v1/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ name: 'bench' }) })).json()).key;
  const project = (await login.json()).projects[0].id;

  const count = Number(values.instances);
  const seeded = Date.now();
  await sql(
    dbUrl.toString(),
    `INSERT INTO instances (project_id, name, instance_type, region, engine_version, disk_gib, status, health, tags, endpoints, nodes, created_at)
     SELECT $1, 'bench-' || lpad(i::text, 6, '0'),
            (ARRAY['kv.standard.small','kv.standard.large','kv.standard.xlarge'])[1 + i % 3], 'local', '1.0', 10,
            (ARRAY['running','running','running','creating','error']::instance_status[])[1 + i % 5], 'healthy',
            jsonb_build_object('team', 'team-' || (i % 20)),
            jsonb_build_array(jsonb_build_object('type','private','host','10.77.' || (i / 250) || '.' || (i % 250 + 2),'port',6379,'tls',false)),
            jsonb_build_array(jsonb_build_object('name','node-0','private_ip','10.77.' || (i / 250) || '.' || (i % 250 + 2))),
            now() - (i || ' seconds')::interval
     FROM generate_series(1, $2) AS i`,
    [project, count],
  );
  await sql(dbUrl.toString(), 'ANALYZE instances');
  const total = (await sql(dbUrl.toString(), 'SELECT count(*)::int AS n FROM instances')).rows[0].n;
  console.log(`seeded ${total} instances in ${Date.now() - seeded} ms`);

  const url = `${base}/v1/projects/${project}/instances${values.query ? `?${values.query}` : ''}`;
  const headers = { authorization: `Bearer ${key}` };
  const probe = await fetch(url, { headers });
  const page = await probe.json();
  if (probe.status !== 200 || page.items.length === 0) throw new Error(`probe failed: ${probe.status}`);
  console.log(`GET ${url.replace(base, '')} -> ${page.items.length} items per page, next_cursor ${page.next_cursor ? 'set' : 'null'}`);

  if (process.env.BENCH_PAUSE) { console.log(`PAUSE ${url} ${key}`); await new Promise((r) => setTimeout(r, Number(process.env.BENCH_PAUSE))); }
  // Warm-up: a serving API has run its hot paths thousands of times; until V8 has optimised them
  // (a few thousand calls) the first seconds measure the JIT, not the API.
  await autocannon({ url, headers, connections: 10, amount: Number(values.warmup) });
  // CPU the API process spends, from /proc (clock ticks of 10 ms), to tell cost from contention.
  // With BASALT_API_WORKERS > 1 the work happens in the primary's children: count them too.
  const stat = (pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpuMs = () =>
    readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .map((pid) => { try { return [pid, stat(pid)]; } catch { return [pid, null]; } })
      .filter(([pid, fields]) => fields && (Number(pid) === api.pid || Number(fields[1]) === api.pid))
      .reduce((sum, [, fields]) => sum + (Number(fields[11]) + Number(fields[12])) * 10, 0);
  const cpuBefore = cpuMs();
  const result = await autocannon({
    url,
    headers,
    connections: Number(values.connections),
    overallRate: Number(values.rate),
    duration: Number(values.duration),
  });
  const cpuPerRequest = (cpuMs() - cpuBefore) / Math.max(result.requests.total, 1);
  // Control: the same load on /v1/health (one trivial query) shows what the host itself adds.
  const control = await autocannon({ url: `${base}/v1/health`, connections: Number(values.connections), overallRate: Number(values.rate), duration: Math.min(Number(values.duration), 15) });
  const l = result.latency;
  console.log(
    `autocannon: ${values.connections} connections, overallRate ${values.rate}/s, ${values.duration} s: ` +
      `${result.requests.total} requests (${result.requests.average}/s), non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
  );
  console.log(`API CPU per request: ${cpuPerRequest.toFixed(2)} ms; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(`latency ms: p50 ${l.p50}, p90 ${l.p90}, p97.5 ${l.p97_5}, p99 ${l.p99}, max ${l.max}, mean ${l.average}`);
  const c = control.latency;
  console.log(`control GET /v1/health at the same rate: p50 ${c.p50}, p99 ${c.p99}, max ${c.max} ms`);
  const ok = l.p99 < 50 && result.non2xx === 0 && result.errors === 0;
  console.log(ok ? 'PASS: p99 under 50 ms' : 'FAIL: p99 not under 50 ms or errors');
  process.exitCode = ok ? 0 : 1;
} finally {
  api.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  await sql(adminUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
}
