import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectEngineFeatures } from './engine-features.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

/** A stand-in binary that knows some flags, answering as basalt-server's argument parser does. */
async function engineKnowing(flags: string[]): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-usage-'));
  dirs.push(dir);
  const file = path.join(dir, 'server');
  const known = `${flags.join('|') || 'never-matches'})`;
  await fs.writeFile(
    file,
    `#!/bin/sh\ncase "$1" in\n  ${known} echo "basalt-server: port must be 0-65535, not \\"$4\\"" >&2 ;;\n  *) echo "basalt-server: unknown option $1" >&2 ;;\nesac\nexit 1\n`,
    { mode: 0o755 },
  );
  return file;
}

describe('engine features probed from the binary', () => {
  it('finds users, allowlist and TLS in an engine that knows their flags', async () => {
    const binary = await engineKnowing(['--users-file', '--allowlist', '--tls-port']);
    expect([...(await detectEngineFeatures(binary, {}))].sort()).toEqual(['allowlist', 'tls', 'users']);
  });

  it('finds none in an engine without them', async () => {
    expect(await detectEngineFeatures(await engineKnowing([]), {})).toEqual(new Set());
  });

  it('finds some', async () => {
    expect(await detectEngineFeatures(await engineKnowing(['--allowlist']), {})).toEqual(new Set(['allowlist']));
  });

  it('finds none when the binary is missing', async () => {
    expect(await detectEngineFeatures('/nonexistent/basalt-server', {})).toEqual(new Set());
  });

  it('lets BASALT_ENGINE_FEATURES decide', async () => {
    expect(await detectEngineFeatures('/nonexistent', { BASALT_ENGINE_FEATURES: 'users' })).toEqual(new Set(['users']));
  });
});
