// One function per Terraform subcommand, like terraform-exec: always -no-color (and
// -input=false where the subcommand takes it), results read from -json output and exit
// codes. State lives in PostgreSQL (pg backend), one workspace per instance.
import fs from 'node:fs/promises';
import path from 'node:path';
import { outputTail, runCommand, type RunResult } from '../process.js';
import { StepError } from '../errors.js';
import { stateBackendEnv } from './state-backend-env.js';

export interface TerraformContext {
  /** The root module (infra/terraform/stack); runs work in a linked copy of it (`workDir`). */
  stackDir: string;
  /** TF_DATA_DIR of this instance, so concurrent runs never share a .terraform directory. */
  dataDir: string;
  workspace: string;
  /** PostgreSQL URL for the pg backend (PG_CONN_STR and PGPASSFILE: state-backend-env.ts). */
  stateUrl: string;
  stateSchema: string;
  env: NodeJS.ProcessEnv;
  lockTimeout?: string;
  timeoutMs?: number;
}

/** One line of `terraform ... -json` (the machine-readable UI). */
export interface TerraformMessage {
  '@level': string;
  '@message': string;
  type: string;
  [key: string]: unknown;
}

export interface TerraformResult {
  exitCode: number | null;
  messages: TerraformMessage[];
  errors: string[];
  changes?: { add: number; change: number; remove: number };
  tail: string;
}

export type MessageListener = (message: TerraformMessage) => void;

function env(ctx: TerraformContext): NodeJS.ProcessEnv {
  return {
    ...ctx.env,
    TF_DATA_DIR: ctx.dataDir,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    CHECKPOINT_DISABLE: '1',
    ...stateBackendEnv(ctx.stateUrl, ctx.dataDir),
  };
}

/**
 * The directory an instance's runs work in: the stack's files linked into the instance's own
 * directory. Terraform writes beside the configuration what it could not save to the backend
 * (`errored.tfstate`, when PostgreSQL went away mid-apply); run in the stack itself, that file
 * landed in the source tree, shared by every instance, and the state it held was lost.
 * `config/modules` links the stack's sibling modules, so its `../modules/x` sources resolve.
 */
export function workDir(ctx: TerraformContext): string {
  return path.join(ctx.dataDir, 'config', 'stack');
}

const ERRORED_STATE = 'errored.tfstate';

async function link(target: string, at: string): Promise<void> {
  const current = await fs.readlink(at).catch(() => undefined);
  if (current === target) return;
  await fs.rm(at, { force: true });
  await fs.symlink(target, at);
}

/** Links the stack's current `.tf` files (and only those) into `workDir`. */
async function linkStack(ctx: TerraformContext): Promise<string> {
  const root = workDir(ctx);
  await fs.mkdir(root, { recursive: true });
  const stackFiles = (await fs.readdir(ctx.stackDir)).filter((name) => name.endsWith('.tf'));
  for (const name of await fs.readdir(root)) {
    if (name.endsWith('.tf') && !stackFiles.includes(name)) await fs.rm(path.join(root, name), { force: true });
  }
  for (const name of stackFiles) await link(path.join(path.resolve(ctx.stackDir), name), path.join(root, name));
  await link(path.resolve(ctx.stackDir, '..', 'modules'), path.join(root, '..', 'modules'));
  return root;
}

async function terraform(
  step: string,
  ctx: TerraformContext,
  args: string[],
  listener?: MessageListener,
): Promise<TerraformResult> {
  const messages: TerraformMessage[] = [];
  const json = args.includes('-json');
  const root = await linkStack(ctx);
  const result: RunResult = await runCommand('terraform', [`-chdir=${root}`, ...args], {
    env: env(ctx),
    timeoutMs: ctx.timeoutMs ?? 15 * 60_000,
    onStdoutLine: json
      ? (line) => {
          const message = parseMessage(line);
          if (!message) return;
          messages.push(message);
          listener?.(message);
        }
      : undefined,
  });
  const errors = messages
    .filter((m) => m.type === 'diagnostic' && m['@level'] === 'error')
    .map((m) => describeDiagnostic(m));
  const summary = messages.filter((m) => m.type === 'change_summary').pop();
  const tail = outputTail(json ? [...messages.map((m) => m['@message']), result.stderr].join('\n') : result.stdout + '\n' + result.stderr);
  const outcome: TerraformResult = {
    exitCode: result.exitCode,
    messages,
    errors,
    changes: summary?.changes as TerraformResult['changes'],
    tail,
  };
  if (result.exitCode !== 0) {
    const why = result.timedOut ? 'timed out' : `exited with ${result.exitCode ?? result.signal}`;
    const first = errors[0] ?? outputTail(result.stderr, 3);
    throw new StepError(step, `terraform ${args[0]} ${why}${first ? `: ${first}` : ''}`, result.exitCode, tail, isTransient(tail));
  }
  return outcome;
}

function parseMessage(line: string): TerraformMessage | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    return JSON.parse(line) as TerraformMessage;
  } catch {
    return undefined;
  }
}

function describeDiagnostic(message: TerraformMessage): string {
  const diagnostic = message.diagnostic as { summary?: string; detail?: string } | undefined;
  return [diagnostic?.summary, diagnostic?.detail].filter(Boolean).join(': ') || message['@message'];
}

/**
 * A state lock held by another run (the pg backend also takes one global lock while it
 * creates a workspace), or a race creating the backend's schema: worth trying again.
 */
function isTransient(tail: string): boolean {
  return /Error acquiring the state lock|Already locked|failed to lock state|duplicate key value|could not serialize|connection refused/i.test(
    tail,
  );
}

export function terraformInit(ctx: TerraformContext): Promise<TerraformResult> {
  return terraform('terraform_init', ctx, [
    'init',
    '-no-color',
    '-input=false',
    `-backend-config=schema_name=${ctx.stateSchema}`,
  ]);
}

export function terraformWorkspaceSelect(ctx: TerraformContext): Promise<TerraformResult> {
  return terraform('terraform_workspace', ctx, ['workspace', 'select', '-no-color', '-or-create=true', ctx.workspace]);
}

/**
 * Puts back a state an earlier run could not save (`errored.tfstate` in `workDir`), so the
 * next apply starts from the resources that run made rather than making them again. A state
 * the backend has since moved past (push refuses an older serial or another lineage) is kept
 * aside under a dated name, not pushed over the newer one. Returns whether one was pushed.
 */
export async function terraformStateRecover(ctx: TerraformContext): Promise<boolean> {
  const file = path.join(workDir(ctx), ERRORED_STATE);
  if (!(await fs.stat(file).catch(() => undefined))) return false;
  const push = { ...ctx, env: { ...ctx.env, TF_WORKSPACE: ctx.workspace } };
  try {
    await terraform('terraform_init', push, ['state', 'push', `-lock-timeout=${ctx.lockTimeout ?? '300s'}`, ERRORED_STATE]);
  } catch (error) {
    if (!(error instanceof StepError) || !/serial|lineage/i.test(error.message + (error.toFault().output_tail ?? ''))) throw error;
    await fs.rename(file, `${file}.superseded-${Date.now()}`);
    return false;
  }
  await fs.rm(file);
  return true;
}

/**
 * `replace`: resource addresses made again from scratch (`-replace`), e.g. a failed node's VM.
 * `targets`: only these resources and what they depend on (`-target`), e.g. one node's disk of a
 * standard instance grown node by node.
 */
export function terraformApply(ctx: TerraformContext, varFile: string, listener?: MessageListener, replace: string[] = [], targets: string[] = []): Promise<TerraformResult> {
  return terraform(
    'terraform_apply',
    { ...ctx, env: { ...ctx.env, TF_WORKSPACE: ctx.workspace } },
    [
      'apply', '-json', '-no-color', '-input=false', '-auto-approve', `-lock-timeout=${ctx.lockTimeout ?? '300s'}`, `-var-file=${varFile}`,
      ...replace.map((address) => `-replace=${address}`),
      ...targets.map((address) => `-target=${address}`),
    ],
    listener,
  );
}

export function terraformDestroy(ctx: TerraformContext, varFile: string, listener?: MessageListener): Promise<TerraformResult> {
  return terraform(
    'terraform_destroy',
    { ...ctx, env: { ...ctx.env, TF_WORKSPACE: ctx.workspace } },
    ['destroy', '-json', '-no-color', '-input=false', '-auto-approve', `-lock-timeout=${ctx.lockTimeout ?? '300s'}`, `-var-file=${varFile}`],
    listener,
  );
}

/** `terraform output -json`: the root module's outputs by name. */
export async function terraformOutput(ctx: TerraformContext): Promise<Record<string, unknown>> {
  const result = await runCommand('terraform', [`-chdir=${await linkStack(ctx)}`, 'output', '-json', '-no-color'], {
    env: { ...env(ctx), TF_WORKSPACE: ctx.workspace },
    timeoutMs: 120_000,
  });
  const tail = outputTail(result.stdout + '\n' + result.stderr);
  if (result.exitCode !== 0) {
    throw new StepError('terraform_output', `terraform output exited with ${result.exitCode}`, result.exitCode, tail);
  }
  let parsed: Record<string, { value: unknown }>;
  try {
    parsed = JSON.parse(result.stdout) as Record<string, { value: unknown }>;
  } catch {
    throw new StepError('terraform_output', 'terraform output -json did not print JSON', result.exitCode, tail);
  }
  return Object.fromEntries(Object.entries(parsed).map(([name, output]) => [name, output.value]));
}

/** Deletes the instance's (empty) workspace, so its state row leaves PostgreSQL too. */
export async function terraformWorkspaceDelete(ctx: TerraformContext): Promise<void> {
  // A workspace cannot delete itself while selected: TF_WORKSPACE must not name it.
  const other = { ...ctx, env: { ...ctx.env, TF_WORKSPACE: undefined } };
  await terraform('terraform_workspace', other, ['workspace', 'select', '-no-color', 'default']);
  await terraform('terraform_workspace', other, [
    'workspace',
    'delete',
    '-no-color',
    `-lock-timeout=${ctx.lockTimeout ?? '300s'}`,
    ctx.workspace,
  ]);
}
