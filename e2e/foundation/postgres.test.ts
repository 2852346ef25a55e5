// PostgreSQL is a real server reached over a real connection, and the API applies its migrations.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, requireEnv } from '../support/env.js';
import { startTestPlatform } from '../support/platform.js';

describe('PostgreSQL', () => {
  test('the test cluster answers over TCP', async () => {
    const client = new pg.Client({ connectionString: requireEnv('DATABASE_URL') });
    await client.connect();
    const { rows } = await client.query('SHOW server_version_num');
    await client.end();
    expect(Number(rows[0].server_version_num)).toBeGreaterThanOrEqual(150000);
  });
});

describe('migrations', () => {
  let platform: Awaited<ReturnType<typeof startTestPlatform>>;
  beforeAll(async () => { platform = await startTestPlatform(); });
  afterAll(async () => { await platform?.stop(); });

  test('the API applies every migration at start and reports healthy', async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'packages', 'db', 'migrations', 'meta', '_journal.json'), 'utf8'));
    const res = await fetch(`${platform.apiUrl}/v1/health`);
    expect(res.status).toBe(200);
    const health = await res.json();
    expect(health.database).toBe('ok');
    expect(health.migrations).toBe(journal.entries.length);
  });
});
