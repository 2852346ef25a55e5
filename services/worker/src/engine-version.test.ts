import { describe, expect, it } from 'vitest';
import { engineVersionMismatch } from './engine-version.js';

describe('engineVersionMismatch', () => {
  it('accepts a release of the series the instance asks for', () => {
    expect(engineVersionMismatch('1.0', '1.0.0')).toBeNull();
    expect(engineVersionMismatch('1.0', '1.0.17')).toBeNull();
    expect(engineVersionMismatch('1.0', '1.0')).toBeNull();
  });

  it('refuses another series, a prefix that is not a series, and a node that does not say', () => {
    expect(engineVersionMismatch('1.0', '0.1.0')).toMatch(/runs engine 0\.1\.0, the instance asks for engine version 1\.0/);
    expect(engineVersionMismatch('1.0', '1.01.0')).not.toBeNull();
    expect(engineVersionMismatch('1.0', '1.1.0')).not.toBeNull();
    expect(engineVersionMismatch('1.0', undefined)).toMatch(/no basalt_version/);
  });
});
