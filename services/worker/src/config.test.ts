// The worker's settings refuse what they cannot mean, at start, naming the setting.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('BASALT_BACKUP_S3_*', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-config-'));
  const accessKeyFile = path.join(dir, 'access-key');
  const secretKeyFile = path.join(dir, 'secret-key');
  fs.writeFileSync(accessKeyFile, 'AKEXAMPLE\n');
  fs.writeFileSync(secretKeyFile, 'secret\n');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = {
    BASALT_BACKUP_S3_BUCKET: 'basalt-backups',
    BASALT_BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9000',
    BASALT_BACKUP_S3_ACCESS_KEY_FILE: accessKeyFile,
    BASALT_BACKUP_S3_SECRET_KEY_FILE: secretKeyFile,
  };

  it('turns backups on with a bucket, and keeps only the paths of the credentials', () => {
    expect(loadConfig(env).backupStore).toBeUndefined();
    expect(loadConfig({ ...env, ...store, BASALT_BACKUP_S3_FORCE_PATH_STYLE: 'true' }).backupStore).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'basalt-backups',
      region: 'us-east-1',
      forcePathStyle: true,
      accessKeyFile,
      secretKeyFile,
    });
    const aws = loadConfig({ ...env, ...store, BASALT_BACKUP_S3_ENDPOINT: '', BASALT_BACKUP_S3_REGION: 'eu-west-1' }).backupStore;
    expect(aws).toMatchObject({ endpoint: undefined, region: 'eu-west-1', forcePathStyle: false });
  });

  it('refuses a credential given as a value, a setting without the bucket, and what cannot be meant', () => {
    expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_SECRET_KEY: 'secret' })).toThrow(/BASALT_BACKUP_S3_SECRET_KEY is not read: .*BASALT_BACKUP_S3_SECRET_KEY_FILE/);
    expect(() => loadConfig({ ...env, BASALT_BACKUP_S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/BASALT_BACKUP_S3_ENDPOINT set without BASALT_BACKUP_S3_BUCKET/);
    for (const bucket of ['Backups', 'ab', 'a_b', '-ab', '192.168.0.1', 'a..b']) {
      expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_BUCKET: bucket })).toThrow(/BASALT_BACKUP_S3_BUCKET must be an S3 bucket name/);
    }
    for (const endpoint of ['127.0.0.1:9000', 'ftp://host', 'http://key:secret@host', 'http://host/path', 'http://host?x=1']) {
      expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_ENDPOINT: endpoint })).toThrow(/BASALT_BACKUP_S3_ENDPOINT must be/);
    }
    expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_REGION: 'EU West' })).toThrow(/BASALT_BACKUP_S3_REGION must be/);
    expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/BASALT_BACKUP_S3_FORCE_PATH_STYLE must be true or false/);
    expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_ACCESS_KEY_FILE: undefined })).toThrow(/BASALT_BACKUP_S3_ACCESS_KEY_FILE is not set/);
    expect(() => loadConfig({ ...env, ...store, BASALT_BACKUP_S3_SECRET_KEY_FILE: path.join(dir, 'missing') })).toThrow(/BASALT_BACKUP_S3_SECRET_KEY_FILE: cannot read .*ENOENT/);
  });
});
