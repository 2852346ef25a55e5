// The committed types must be exactly what openapi-typescript makes of the committed spec, so a
// spec change without `npm run spec -w @basalt/api` fails here (and the API's spec test catches
// a code change without a spec change).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';

const root = new URL('..', import.meta.url);

it('src/schema.ts matches openapi.json', async () => {
  const spec = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8'));
  const generated = astToString(await openapiTS(spec, { defaultNonNullable: false }));
  const committed = readFileSync(fileURLToPath(new URL('src/schema.ts', root)), 'utf8');
  const strip = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\n\n/, '').trim();
  expect(strip(committed)).toBe(strip(generated));
});

it('documents the error body and the auth routes', () => {
  const spec = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8'));
  expect(Object.keys(spec.components.schemas.ErrorDto.properties)).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
  expect(spec.paths['/v1/auth/login'].post).toBeDefined();
});
