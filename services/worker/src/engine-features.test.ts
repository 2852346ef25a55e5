import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectEngineFeatures } from './engine-features.js';

async function fakeUsage(text: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-usage-'));
  const file = path.join(dir, 'server');
  await fs.writeFile(file, `#!/bin/sh\necho "${text}" >&2\nexit 2\n`, { mode: 0o755 });
  return file;
}

describe('engine features from the binary usage', () => {
  it('finds users, allowlist and TLS flags', async () => {
    const binary = await fakeUsage('Usage: basalt-server [--port N] [--users-file PATH] [--allowlist CIDRS] [--tls-port N]');
    expect([...(await detectEngineFeatures(binary, {}))].sort()).toEqual(['allowlist', 'tls', 'users']);
  });

  it('finds none in an engine without them', async () => {
    const binary = await fakeUsage('Usage: basalt-server [--config FILE] [--port N]');
    expect(await detectEngineFeatures(binary, {})).toEqual(new Set());
  });

  it('lets BASALT_ENGINE_FEATURES decide', async () => {
    expect(await detectEngineFeatures('/nonexistent', { BASALT_ENGINE_FEATURES: 'users' })).toEqual(new Set(['users']));
  });

});
