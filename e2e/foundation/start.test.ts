// `npm start` as a user runs it: it prints one block with the URLs and a login, both answer, the
// login works, Ctrl-C stops everything, and a second run reuses the same data and login.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/env.js';
import { createDatabase } from '../support/database.js';

type Started = { block: string; exit: Promise<number | null>; stop: () => void };

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
  return { block: out, exit, stop: () => child.kill('SIGINT') };
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
      BASALT_ADMIN_EMAIL: '', BASALT_ADMIN_PASSWORD: '',
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
      } finally {
        started.stop();
      }
      expect(await started.exit).toBe(0);
    }
    expect(logins[1]).toBe(logins[0]);
  });
});
