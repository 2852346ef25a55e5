import { describe, expect, it } from 'vitest';
import { nodeCountOf, parseTopology } from '../src/rules.js';

describe('parseTopology', () => {
  it('defaults to standalone, and standard to one sync replica', () => {
    expect(parseTopology({})).toEqual({ topology: { architecture: 'standalone', replicas: 0 } });
    expect(parseTopology({ architecture: 'standard' })).toEqual({ topology: { architecture: 'standard', replicas: 1, replication_mode: 'sync' } });
    expect(parseTopology({ architecture: 'standard', replicas: 5, replication_mode: 'async' })).toEqual({
      topology: { architecture: 'standard', replicas: 5, replication_mode: 'async' },
    });
  });

  it('refuses replicas out of 1..5, replicas or a mode on standalone, and unknown values', () => {
    for (const replicas of [0, 6, 1.5, -1]) {
      expect(parseTopology({ architecture: 'standard', replicas })).toEqual({ problems: [{ field: 'replicas', problem: 'must be a whole number from 1 to 5' }] });
    }
    expect(parseTopology({ replicas: 1 })).toEqual({ problems: [{ field: 'replicas', problem: 'only a standard instance has replicas' }] });
    expect(parseTopology({ architecture: 'standalone', replication_mode: 'sync' })).toMatchObject({ problems: [{ field: 'parameters.replication_mode' }] });
    expect(parseTopology({ architecture: 'cluster' })).toMatchObject({ problems: [{ field: 'architecture' }] });
    expect(parseTopology({ architecture: 'standard', replication_mode: 'semi' })).toMatchObject({ problems: [{ field: 'parameters.replication_mode' }] });
  });

  it('counts the primary and its replicas', () => {
    expect(nodeCountOf({ replicas: 0 })).toBe(1);
    expect(nodeCountOf({ replicas: 3 })).toBe(4);
  });
});
