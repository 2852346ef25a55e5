// The Terraform provider as a user runs it: examples/basic applied with the repository's
// Terraform (the provider comes from the bootstrap's filesystem mirror, no registry), redis-cli
// to the output endpoint with the output credentials writes and reads, and destroy leaves
// nothing behind — neither in the state nor in the API.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/env.js';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { redisCli, type Credentials } from './support/vm-host.js';

const EXAMPLE = path.join(ROOT, 'apps', 'terraform-provider', 'examples', 'basic');
const MIRRORED = fs.existsSync(path.join(ROOT, '.tools', 'bin', 'terraform-provider-basalt'));

let platform: ProvisioningPlatform;
let workDir: string;
let env: NodeJS.ProcessEnv;

/** terraform in the copy of the example, as a person would run it there. */
function terraform(...args: string[]): string {
  return execFileSync('terraform', args, { cwd: workDir, env, encoding: 'utf8', timeout: 600_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_tf');
  const { data } = await platform.client.POST('/v1/api-keys', { body: { name: 'terraform example' } });
  if (!data) throw new Error('could not create an API key');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tf-example-'));
  for (const file of fs.readdirSync(EXAMPLE).filter((f) => f.endsWith('.tf'))) fs.copyFileSync(path.join(EXAMPLE, file), path.join(workDir, file));
  env = { ...process.env, BASALT_ENDPOINT: platform.apiUrl, BASALT_API_KEY: data.key, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
});

afterAll(async () => {
  await platform?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe.runIf(MIRRORED)('terraform apply of examples/basic', () => {
  let instanceId: string;

  test('init finds basalt/basalt offline; apply creates a running instance', async () => {
    expect(terraform('init', '-input=false', '-no-color')).toContain('Installed basalt/basalt');
    terraform('apply', '-auto-approve', '-input=false', '-no-color');
    const shown = JSON.parse(terraform('show', '-json')) as { values: { root_module: { resources: { address: string; values: { id: string } }[] } } };
    instanceId = shown.values.root_module.resources.find((r) => r.address === 'basalt_instance.this')!.values.id;
    expect((await platform.getInstance(instanceId)).status).toBe('running');
    expect(terraform('plan', '-detailed-exitcode', '-input=false', '-no-color')).toContain('No changes');
  }, 600_000);

  test('redis-cli with the output endpoint and credentials writes and reads', () => {
    const outputs = JSON.parse(terraform('output', '-json')) as Record<string, { value: unknown; sensitive: boolean }>;
    expect(outputs.connection_uri!.sensitive).toBe(true);
    const uri = new URL(outputs.connection_uri!.value as string);
    expect(uri.hostname).toBe(outputs.host!.value);
    expect(Number(uri.port)).toBe(outputs.port!.value);
    const user: Credentials = { username: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password) };
    const host = outputs.host!.value as string;
    const port = outputs.port!.value as number;
    // Only an address on the project's bridge is ever connected to.
    expect(execFileSync('ip', ['route', 'get', host], { encoding: 'utf8' })).toMatch(/ dev basalt0 /);
    expect(redisCli(host, port, user, 'SET', 'terraform:example', 'written')).toBe('OK');
    expect(redisCli(host, port, user, 'GET', 'terraform:example')).toBe('written');
  });

  test('destroy leaves nothing: an empty state, and the API shows the instance deleted', async () => {
    terraform('destroy', '-auto-approve', '-input=false', '-no-color');
    expect(terraform('state', 'list').trim()).toBe('');
    expect((await platform.getInstance(instanceId)).status).toBe('deleted');
    const { data } = await platform.client.GET('/v1/projects/{project}/instances', { params: { path: { project: platform.projectId } } });
    expect(data?.items ?? []).toEqual([]);
  }, 600_000);
});
