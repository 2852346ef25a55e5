// A restart with another BASALT_MASTER_KEY is refused before it can write secrets nobody can read.
import { afterAll, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startApi } from './support/api-process.js';
import { createTestDatabase } from './support/database.js';

const database = await createTestDatabase();
afterAll(() => database.drop());

it('restarts with the same key and refuses a different one', async () => {
  const masterKey = randomBytes(32).toString('base64');
  const first = await startApi({}, { databaseUrl: database.url, masterKey });
  await first.stop();
  const again = await startApi({}, { databaseUrl: database.url, masterKey });
  expect((await fetch(`${again.baseUrl}/v1/health`)).status).toBe(200);
  await again.stop();
  await expect(startApi({}, { databaseUrl: database.url, masterKey: randomBytes(32).toString('base64') })).rejects.toThrow(/not the key this database was set up with/);
});
