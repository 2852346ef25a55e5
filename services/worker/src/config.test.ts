// The worker's settings refuse what they cannot mean, at start, naming the setting.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const env = { DATABASE_URL: 'postgres://x@127.0.0.1/x', BASALT_MASTER_KEY: Buffer.alloc(32, 1).toString('base64') };

describe('BASALT_BENCHMARK_SCENARIO_SECONDS', () => {
  it('is 4 unless set, and takes 1 to 60', () => {
    expect(loadConfig(env).standardScenarioSeconds).toBe(4);
    expect(loadConfig({ ...env, BASALT_BENCHMARK_SCENARIO_SECONDS: '1' }).standardScenarioSeconds).toBe(1);
    expect(loadConfig({ ...env, BASALT_BENCHMARK_SCENARIO_SECONDS: '60' }).standardScenarioSeconds).toBe(60);
  });

  it('refuses anything else, before any run could pass it to the load generator', () => {
    for (const bad of ['0', '61', '2.5', '-1', '1e3', '4 --server=10.0.0.1', '$(touch /tmp/x)']) {
      expect(() => loadConfig({ ...env, BASALT_BENCHMARK_SCENARIO_SECONDS: bad })).toThrow(/BASALT_BENCHMARK_SCENARIO_SECONDS must be a whole number from 1 to 60/);
    }
  });
});
