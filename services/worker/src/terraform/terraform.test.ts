// Runs the real terraform binary against a tiny root module with the same pg backend the
// stack uses, in a database of its own.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/database.js';
import { StepError } from '../errors.js';
import { runCommand } from '../process.js';
import { stateBackendEnv } from './state-backend-env.js';
import {
  terraformApply,
  terraformDestroy,
  terraformInit,
  terraformOutput,
  terraformStateRecover,
  terraformWorkspaceDelete,
  workDir,
  terraformWorkspaceSelect,
  type TerraformContext,
} from './terraform.js';

const MODULE = `
terraform {
  backend "pg" {}
}
variable "marker" {
  type = string
}
variable "fail" {
  type    = bool
  default = false
}
resource "terraform_data" "this" {
  input            = var.marker
  triggers_replace = [var.marker, var.fail]
  provisioner "local-exec" {
    command = var.fail ? "echo provisioning went wrong >&2; exit 3" : "echo created \${var.marker}"
  }
}
output "marker" {
  value = terraform_data.this.output
}
`;

let database: TestDatabase;
let dir: string;
let ctx: TerraformContext;

beforeAll(async () => {
  database = await createTestDatabase('worker_tf');
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'basalt-tf-'));
  await fs.mkdir(path.join(dir, 'stack'));
  await fs.writeFile(path.join(dir, 'stack', 'main.tf'), MODULE);
  ctx = {
    stackDir: path.join(dir, 'stack'),
    dataDir: path.join(dir, 'data'),
    workspace: 'instance-a',
    stateUrl: database.url,
    stateSchema: 'terraform_state',
    env: process.env,
  };
});

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await database?.drop();
});

async function vars(values: Record<string, unknown>): Promise<string> {
  const file = path.join(dir, `vars-${Math.random().toString(16).slice(2)}.json`);
  await fs.writeFile(file, JSON.stringify(values));
  return file;
}

/** A subcommand the worker never runs (state pull), to read the backend's state as it is. */
async function runTerraform(args: string[]): Promise<string> {
  const env = { ...process.env, TF_DATA_DIR: ctx.dataDir, TF_WORKSPACE: ctx.workspace, ...stateBackendEnv(ctx.stateUrl, ctx.dataDir) };
  const result = await runCommand('terraform', [`-chdir=${workDir(ctx)}`, ...args], { env, timeoutMs: 60_000 });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout;
}

describe('terraform subcommands', () => {
  it('applies into the instance workspace and reads outputs from -json', async () => {
    await terraformInit(ctx);
    await terraformWorkspaceSelect(ctx);
    const events: string[] = [];
    const result = await terraformApply(ctx, await vars({ marker: 'one' }), (m) => events.push(m.type));
    expect(result.exitCode).toBe(0);
    expect(result.changes).toMatchObject({ add: 1, change: 0, remove: 0 });
    expect(events).toContain('apply_complete');
    expect(await terraformOutput(ctx)).toEqual({ marker: 'one' });

    const again = await terraformApply(ctx, await vars({ marker: 'one' }));
    expect(again.changes).toMatchObject({ add: 0, change: 0, remove: 0 });
  });

  it('reports a failing provisioner with the exit status and the output tail', async () => {
    const error = await terraformApply(ctx, await vars({ marker: 'two', fail: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
    const fault = (error as StepError).toFault();
    expect(fault.step).toBe('terraform_apply');
    expect(fault.exit_code).toBe(1);
    expect(fault.output_tail).toMatch(/provisioning went wrong|exit status 3/);
  });

  it('keeps what it writes beside the configuration out of the stack, and pushes a state a run could not save', async () => {
    expect(await fs.readdir(ctx.stackDir)).toEqual(['main.tf']);
    const pulled = await runTerraform(['state', 'pull']);
    const state = JSON.parse(pulled) as { serial: number; outputs: { marker: { value: string } } };
    state.serial += 1;
    state.outputs.marker.value = 'saved-late';
    await fs.writeFile(path.join(workDir(ctx), 'errored.tfstate'), JSON.stringify(state));
    expect(await terraformStateRecover(ctx)).toBe(true);
    expect(await terraformOutput(ctx)).toEqual({ marker: 'saved-late' });
    expect(await fs.readdir(workDir(ctx))).not.toContain('errored.tfstate');

    // One the backend has moved past is set aside, not pushed over the newer state.
    state.serial -= 5;
    state.outputs.marker.value = 'stale';
    await fs.writeFile(path.join(workDir(ctx), 'errored.tfstate'), JSON.stringify(state));
    expect(await terraformStateRecover(ctx)).toBe(false);
    expect(await terraformOutput(ctx)).toEqual({ marker: 'saved-late' });
    expect((await fs.readdir(workDir(ctx))).some((name) => name.startsWith('errored.tfstate.superseded-'))).toBe(true);
  });

  it('destroys and removes the workspace', async () => {
    const result = await terraformDestroy(ctx, await vars({ marker: 'one' }));
    expect(result.exitCode).toBe(0);
    await terraformWorkspaceDelete(ctx);
    const error = await terraformWorkspaceDelete(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StepError);
  });
});
