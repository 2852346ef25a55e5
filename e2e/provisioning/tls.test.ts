// An instance with tls_enabled: the worker has a CA of the instance's own and a server
// certificate made on its VM, the endpoint is the TLS port and carries the CA certificate,
// redis-cli --tls --cacert works, a plaintext client gets nothing, the plaintext port is off.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { ENGINE_FEATURES, pingOutcome, redisCli, type Credentials } from './support/vm-host.js';

type Instance = Schemas['InstanceDto'];
type TlsEndpoint = { host: string; port: number; tls: boolean; ca_certificate?: string };

let platform: ProvisioningPlatform;
let instance: Instance;
let owner: Credentials;
let endpoint: TlsEndpoint;
const caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tls-')), 'ca.pem');

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_tls');
});

afterAll(async () => {
  await platform?.stop();
  fs.rmSync(path.dirname(caFile), { recursive: true, force: true });
});

const path_ = () => ({ project: platform.projectId, instance: instance.id });

/** redis-cli over TLS, verifying the server with the instance's CA. */
function tlsCli(credentials: Credentials, ...args: string[]): string {
  const auth = ['--user', credentials.username, '--pass', credentials.password, '--no-auth-warning'];
  return execFileSync('redis-cli', ['--tls', '--cacert', caFile, '-h', endpoint.host, '-p', String(endpoint.port), ...auth, ...args], {
    encoding: 'utf8',
    timeout: 10_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

const plaintext = (port: number) => pingOutcome(endpoint.host, port, owner);

describe.runIf(ENGINE_FEATURES.has('tls'))('an instance with TLS, on a local VM', () => {
  test('POST with tls_enabled → running, endpoint on the TLS port with the CA certificate', async () => {
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
      params: { path: { project: platform.projectId } },
      body: { name: 'tls', instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: true, deletion_protection: false },
    });
    expect(response.status).toBe(202);
    instance = data!.instance;
    owner = data!.default_user;
    instance = await platform.waitForStatus(instance.id, ['running']);
    expect(instance.tls_enabled).toBe(true);
    endpoint = instance.endpoints[0] as unknown as TlsEndpoint;
    expect(endpoint).toMatchObject({ port: 6380, tls: true });
    expect(endpoint.ca_certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(instance.connection_uri).toBe(`rediss://default:********@${endpoint.host}:6380`);
    fs.writeFileSync(caFile, endpoint.ca_certificate!);
  });

  test('the certificate chains to the instance CA and names the endpoint address', () => {
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', caFile], { encoding: 'utf8' });
    expect(text).toContain(`Basalt instance CA ${instance.id}`);
    expect(text).toMatch(/CA:TRUE/);
    const chain = execFileSync('sh', ['-c', `openssl s_client -connect ${endpoint.host}:${endpoint.port} -CAfile ${caFile} -verify_ip ${endpoint.host} -verify_return_error </dev/null 2>&1`], { encoding: 'utf8', timeout: 10_000 });
    expect(chain).toMatch(/Verify return code: 0 \(ok\)/);
  });

  test('redis-cli --tls --cacert writes and reads as the returned user', () => {
    expect(tlsCli(owner, 'SET', 'secure', 'yes')).toBe('OK');
    expect(tlsCli(owner, 'GET', 'secure')).toBe('yes');
  });

  test('a plaintext client gets nothing: the TLS port speaks TLS only, the plaintext port is off', () => {
    expect(plaintext(6380)).not.toMatch(/^answered: (PONG|OK)/);
    expect(plaintext(6379)).toMatch(/^refused: .*(Connection refused|Could not connect)/is);
  });

  test('a client with another CA is refused', () => {
    const other = path.join(path.dirname(caFile), 'other.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=other', '-keyout', `${other}.key`, '-out', other], { stdio: 'ignore' });
    const auth = ['--user', owner.username, '--pass', owner.password, '--no-auth-warning'];
    expect(() =>
      execFileSync('redis-cli', ['--tls', '--cacert', other, '-h', endpoint.host, '-p', String(endpoint.port), ...auth, 'PING'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] }),
    ).toThrow();
  });

  test("a benchmark runs over TLS, verifying the instance's CA, and counts what the engine served", async () => {
    const calls = () => Number(/^cmdstat_set:calls=(\d+)/m.exec(tlsCli(owner, 'INFO', 'commandstats'))?.[1] ?? 0);
    const before = calls();
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/benchmarks', {
      params: { path: path_() },
      body: { workload: 'custom', flags: ['--threads=1', '--clients=2', '--requests=500', '--ratio=1:0'] },
    });
    expect(response.status).toBe(202);
    const operation = await platform.waitForOperation(data!.operation.id);
    expect(operation.status, JSON.stringify(operation.error)).toBe('succeeded');
    const run = (await platform.client.GET('/v1/projects/{project}/instances/{instance}/benchmarks/{benchmark}', { params: { path: { ...path_(), benchmark: data!.benchmark.id } } })).data!;
    const [scenario] = run.scenarios;
    expect(scenario).toMatchObject({ requests: 1000, errors: 0 });
    expect(scenario!.command_line).toContain(`--server=${endpoint.host} --port=6380 '--authenticate=default:<password>' --tls --cacert=ca.pem`);
    expect(calls() - before).toBe(1000);
  });

  test('restart keeps the same CA, TLS and data', async () => {
    const { data, response } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/restart', { params: { path: path_() } });
    expect(response.status).toBe(202);
    expect((await platform.waitForOperation(data!.operation!.id)).status).toBe('succeeded');
    instance = await platform.waitForStatus(instance.id, ['running']);
    expect((instance.endpoints[0] as unknown as TlsEndpoint).ca_certificate).toBe(endpoint.ca_certificate);
    expect(tlsCli(owner, 'GET', 'secure')).toBe('yes');
  });
});
