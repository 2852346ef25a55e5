// Writes the OpenAPI spec to packages/api-client/openapi.json (`npm run spec -w @basalt/api`),
// from which the typed client is generated. Needs no database: nothing connects until a query.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from './app.factory.js';
import { loadConfig } from './config.js';

const target = fileURLToPath(new URL('../../../packages/api-client/openapi.json', import.meta.url));

const config = loadConfig({
  DATABASE_URL: 'postgres://spec@127.0.0.1:1/spec',
  BASALT_MASTER_KEY: randomBytes(32).toString('base64'),
});
const { app, document } = await createApp(config);
writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
await app.close();
console.log(`wrote ${target}`);
