// `npm start` as a user runs it: it prints one block with the URLs and a login, both answer, the
// login works, Ctrl-C stops everything, and a second run reuses the same data and login. No
// process it starts holds a secret in its environment or on its command line. A worker or an
// API killed under it is started again, and it goes on.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/env.js';
import { createDatabase } from '../support/database.js';

type Started = { pid: number; block: string; output: () => string; exit: Promise<number | null>; stop: () => void };

async function npmStart(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs'), '--no-bootstrap'], { cwd: ROOT, env });
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { out += c; });
  const deadline = Date.now() + 240_000;
  while (!/Ctrl-C stops everything/.test(out)) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`npm start printed no block:\n${out}`); }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { pid: child.pid!, block: out, output: () => out, exit, stop: () => child.kill('SIGINT') };
}

/** Every live process under `pid` (children of children too), with its environment and command line. */
function descendants(pid: number): { pid: number; environ: string[]; cmdline: string }[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name, in parentheses, may hold spaces: the fields after its ')' are fixed.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* exited meanwhile */ }
  }
  const found: number[] = [];
  const under = (p: number): boolean => p === pid || (parentOf.has(p) && p !== 1 && under(parentOf.get(p)!));
  for (const p of parentOf.keys()) if (p !== pid && under(p)) found.push(p);
  return found.flatMap((p) => {
    try {
      const environ = fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').filter(Boolean);
      const cmdline = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' ');
      return [{ pid: p, environ, cmdline }];
    } catch {
      return [];
    }
  });
}

const field = (block: string, name: string) => block.match(new RegExp(`^ ${name}\\s+(\\S+)(?: / (\\S+))?`, 'm'));

describe('npm start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-start-'));
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => { await drop?.(); fs.rmSync(dataDir, { recursive: true, force: true }); });

  test('prints the block, serves console and API, logs in, stops on Ctrl-C, and reuses its data', async () => {
    const db = await createDatabase('start');
    drop = db.drop;
    const { freePort } = await import(path.join(ROOT, 'scripts', 'lib', 'net.mjs'));
    const env = {
      ...process.env, DATABASE_URL: db.url, BASALT_DATA_DIR: dataDir,
      BASALT_API_PORT: String(await freePort()), BASALT_CONSOLE_PORT: String(await freePort()),
      // Not the default 9390: a developer's `npm start` or a neighbouring test may hold it.
      BASALT_PROMETHEUS_PORT: String(await freePort()),
      BASALT_ADMIN_EMAIL: '', BASALT_ADMIN_PASSWORD: '',
      // Given as a user would give it: it must reach the API and the worker, and no environment.
      BASALT_MASTER_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const logins: string[] = [];
    for (let run = 0; run < 2; run++) {
      const started = await npmStart(env);
      try {
        const consoleUrl = field(started.block, 'Console')![1];
        const apiUrl = field(started.block, 'API')![1];
        const login = field(started.block, 'Login')!;
        expect(field(started.block, 'API docs')![1]).toMatch(/\/docs$/);
        expect((await fetch(consoleUrl)).status).toBeLessThan(400);
        expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
        const res = await fetch(`${apiUrl}/auth/login`, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: login[1], password: login[2] }),
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
        logins.push(`${login[1]} / ${login[2]}`);
        if (run === 0) expectNoSecretHeld(started.pid, [env.BASALT_MASTER_KEY, login[2]!, decodeURIComponent(new URL(db.url).password)]);
        if (run === 0) await expectRestarted(started, apiUrl);
      } finally {
        started.stop();
      }
      expect(await started.exit).toBe(0);
    }
    expect(logins[1]).toBe(logins[0]);
  });
});

const mainPid = (startPid: number, main: string) => descendants(startPid).find((p) => p.cmdline.includes(main))?.pid;

/** A process that dies under npm start is started again and npm start goes on (issue 45): the worker, then the API. */
async function expectRestarted(started: Started, apiUrl: string): Promise<void> {
  for (const [name, main] of [['worker', 'services/worker/dist/main.js'], ['api', 'services/api/dist/main.js']] as const) {
    const before = mainPid(started.pid, main)!;
    process.kill(before, 'SIGKILL');
    const deadline = Date.now() + 60_000;
    for (;;) {
      const after = mainPid(started.pid, main);
      const healthy = name !== 'api' || (await fetch(`${apiUrl}/health`).then((r) => r.status === 200, () => false));
      if (after !== undefined && after !== before && healthy) break;
      expect(Date.now(), `${name} was not started again:\n${started.output()}`).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(started.output()).toContain(`${name} exited (SIGKILL); starting it again in 1 s.`);
  }
  expect((await fetch(`${apiUrl}/health`)).status).toBe(200);
}

/** The API, the worker and the console run under npm start, and none holds a secret where others can read it. */
function expectNoSecretHeld(startPid: number, secrets: string[]): void {
  const procs = descendants(startPid);
  for (const main of ['services/api/dist/main.js', 'services/worker/dist/main.js', 'apps/console/server.mjs']) {
    expect(procs.some((p) => p.cmdline.includes(main)), `${main} runs under npm start`).toBe(true);
  }
  for (const proc of procs) {
    const names = proc.environ.map((entry) => entry.split('=')[0]);
    for (const name of ['DATABASE_URL', 'BASALT_MASTER_KEY', 'BASALT_ADMIN_PASSWORD', 'PGPASSWORD']) {
      expect(names, `${proc.cmdline} has ${name} in its environment`).not.toContain(name);
    }
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(proc.environ.join('\n').includes(secret), `${proc.cmdline}: a secret in its environment`).toBe(false);
      expect(proc.cmdline.includes(secret), `${proc.cmdline}: a secret on its command line`).toBe(false);
    }
  }
}
