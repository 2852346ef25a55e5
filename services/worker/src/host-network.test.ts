import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LOCAL_REGION } from '@basalt/db';
import type { WorkerConfig } from './config.js';
import { prepareHostNetwork } from './host-network.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const config = (overrides: Partial<WorkerConfig>) => ({ root, vmKind: 'nspawn', bridge: 'basalt0', ...overrides }) as WorkerConfig;

describe('host network at worker start', () => {
  it('names the region it cannot serve, with the reason, when the bridge cannot be set up', async () => {
    // An interface name the kernel refuses: the script fails before it changes anything.
    const unavailable = await prepareHostNetwork(config({ bridge: 'not a valid name!' }), [LOCAL_REGION]);
    expect([...unavailable.keys()]).toEqual(['local']);
    expect(unavailable.get('local')).toMatch(/^cannot set up bridge not a valid name! for 10\.77\.0\.0\/16: /);
  });

  it('needs no bridge for process VMs, which live on loopback', async () => {
    expect((await prepareHostNetwork(config({ vmKind: 'process', bridge: 'not a valid name!' }), [LOCAL_REGION])).size).toBe(0);
  });
});
