// Backups through the Terraform provider as a user runs it (the repository's Terraform, the
// provider from the bootstrap's filesystem mirror), against the stack with its own backup
// store: an instance with its backup settings, a key written with redis-cli, a basalt_backup of
// it (the apply returns once it has succeeded), a second basalt_instance with
// restore_from { backup_id } that comes up running with the key, the basalt_backups data
// source, a plan with no changes after that, the retention changed in place, and destroy
// leaving no instance and no backup.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../support/env.js';
import { startProvisioningPlatform, type ProvisioningPlatform } from './support/stack.js';
import { redisCli, type Credentials } from './support/vm-host.js';

const MIRRORED = fs.existsSync(path.join(ROOT, '.tools', 'bin', 'terraform-provider-basalt'));

let platform: ProvisioningPlatform;
let workDir: string;
let env: NodeJS.ProcessEnv;

const PROVIDER = `
terraform {
  required_providers {
    basalt = { source = "basalt/basalt" }
  }
}

provider "basalt" {}
`;

const source = (retention: number) => `
resource "basalt_instance" "source" {
  name                  = "tf-source"
  instance_type         = "kv.standard.small"
  region                = "local"
  backup_window         = "22:00-23:30"
  backup_retention_days = ${retention}
}

output "source_uri" {
  value     = basalt_instance.source.connection_uri
  sensitive = true
}
`;

const BACKUP_AND_RESTORE = `
resource "basalt_backup" "this" {
  instance_id = basalt_instance.source.id
}

resource "basalt_instance" "restored" {
  name          = "tf-restored"
  instance_type = "kv.standard.small"
  region        = "local"

  restore_from {
    backup_id = basalt_backup.this.id
  }
}

data "basalt_backups" "source" {
  instance_id = basalt_instance.source.id
  depends_on  = [basalt_backup.this]
}

output "restored_uri" {
  value     = basalt_instance.restored.connection_uri
  sensitive = true
}

output "backup_ids" {
  value = [for b in data.basalt_backups.source.backups : b.id]
}
`;

/** Writes the configuration: the source alone, or with the backup and the restored instance. */
function configure(stage: string): void {
  fs.writeFileSync(path.join(workDir, 'main.tf'), PROVIDER + stage);
}

function terraform(...args: string[]): string {
  return execFileSync('terraform', args, { cwd: workDir, env, encoding: 'utf8', timeout: 900_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `terraform plan -detailed-exitcode`: its exit code (0: no changes, 2: changes) and output. */
function plan(): { code: number; output: string } {
  try {
    return { code: 0, output: terraform('plan', '-detailed-exitcode', '-input=false', '-no-color') };
  } catch (error) {
    const failed = error as { status: number; stdout: string; stderr: string };
    if (failed.status !== 2) throw new Error(`terraform plan failed:\n${failed.stdout}\n${failed.stderr}`);
    return { code: 2, output: failed.stdout };
  }
}

function apply(): void {
  try {
    terraform('apply', '-auto-approve', '-input=false', '-no-color');
  } catch (error) {
    const failed = error as { stdout: string; stderr: string };
    throw new Error(`terraform apply failed:\n${failed.stdout}\n${failed.stderr}\n--- worker ---\n${platform.workerLog().slice(-3000)}`);
  }
}

function output(name: string): unknown {
  return (JSON.parse(terraform('output', '-json')) as Record<string, { value: unknown }>)[name]!.value;
}

/** redis-cli with a connection URI output. */
function redis(uriOutput: string, ...args: string[]): string {
  const uri = new URL(output(uriOutput) as string);
  const user: Credentials = { username: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password) };
  return redisCli(uri.hostname, Number(uri.port), user, ...args);
}

function resourceId(address: string): string {
  const shown = JSON.parse(terraform('show', '-json')) as { values: { root_module: { resources: { address: string; values: { id: string } }[] } } };
  return shown.values.root_module.resources.find((r) => r.address === address)!.values.id;
}

beforeAll(async () => {
  platform = await startProvisioningPlatform('prov_tf_backup', {}, { objectStore: true });
  const { data } = await platform.client.POST('/v1/api-keys', { body: { name: 'terraform backups' } });
  if (!data) throw new Error('could not create an API key');
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-tf-backup-'));
  env = { ...process.env, BASALT_ENDPOINT: platform.apiUrl, BASALT_API_KEY: data.key, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}, 300_000);

describe.runIf(MIRRORED)('basalt_backup and restore_from through terraform', () => {
  let sourceId: string;
  let restoredId: string;
  let backupId: string;

  test('an instance with its backup settings, and a key written to it', async () => {
    configure(source(3));
    terraform('init', '-input=false', '-no-color');
    apply();
    sourceId = resourceId('basalt_instance.source');
    expect(await platform.getInstance(sourceId)).toMatchObject({ status: 'running', backup_window: '22:00-23:30', backup_retention_days: 3 });
    expect(redis('source_uri', 'SET', 'terraform:backup', 'kept')).toBe('OK');
  }, 600_000);

  test('a basalt_backup, then an instance restored from it that runs with the data; the plan is empty after', async () => {
    configure(source(3) + BACKUP_AND_RESTORE);
    apply();
    backupId = resourceId('basalt_backup.this');
    restoredId = resourceId('basalt_instance.restored');
    const { data: backup } = await platform.client.GET('/v1/projects/{project}/backups/{backup}', { params: { path: { project: platform.projectId, backup: backupId } } });
    expect(backup).toMatchObject({ status: 'succeeded', kind: 'manual', instance_id: sourceId });
    expect(output('backup_ids')).toEqual([backupId]);
    expect(await platform.getInstance(restoredId)).toMatchObject({ status: 'running', restored_from: { backup_id: backupId } });
    expect(redis('restored_uri', 'GET', 'terraform:backup')).toBe('kept');
    const after = plan();
    expect(after.code, after.output).toBe(0);
  }, 900_000);

  test('the retention changes in place', async () => {
    configure(source(5) + BACKUP_AND_RESTORE);
    const change = plan();
    expect(change.code).toBe(2);
    expect(change.output).toContain('0 to add, 1 to change, 0 to destroy');
    apply();
    expect((await platform.getInstance(sourceId)).backup_retention_days).toBe(5);
    expect(resourceId('basalt_instance.source')).toBe(sourceId);
    expect(plan().code).toBe(0);
  }, 600_000);

  test('destroy leaves no instance and no backup to restore', async () => {
    terraform('destroy', '-auto-approve', '-input=false', '-no-color');
    expect(terraform('state', 'list').trim()).toBe('');
    expect((await platform.getInstance(sourceId)).status).toBe('deleted');
    expect((await platform.getInstance(restoredId)).status).toBe('deleted');
    const { data: backup, response } = await platform.client.GET('/v1/projects/{project}/backups/{backup}', { params: { path: { project: platform.projectId, backup: backupId } } });
    expect(response.status === 404 || backup?.status === 'deleting', JSON.stringify(backup)).toBe(true);
  }, 900_000);
});
