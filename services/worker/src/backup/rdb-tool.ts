// basalt-rdb (engine/rdb), run by the export job and an RDB import's restore: one function per
// subcommand, its reason (stderr, which names the byte offset of damage) as the step's fault.
import type { JobContext } from '../context.js';
import { StepError } from '../errors.js';
import { outputTail, runCommand } from '../process.js';

/** The engine's logical databases (basalt-server's `databases`, which the engine role leaves at its default). */
export const ENGINE_DATABASES = 16;
/** An RDB of a gigabyte reads in seconds; a stuck run must not hold the job for the hour. */
const TIMEOUT_MS = 30 * 60_000;

async function rdb(ctx: JobContext, step: string, args: string[]): Promise<string> {
  const result = await runCommand(ctx.config.rdbBinary, args, { timeoutMs: TIMEOUT_MS });
  if (result.exitCode !== 0) {
    const reason = outputTail(result.stderr, 5) || `exit ${result.exitCode ?? result.signal}`;
    throw new StepError(step, `basalt-rdb ${args[0]}: ${reason.replace(/^basalt-rdb \w+: /, '')}`, result.exitCode, outputTail(result.stderr + result.stdout));
  }
  return result.stdout.trim();
}

/** Reads the whole file and its checksum; throws with the reason (and offset) when it is not a valid RDB. */
export function rdbCheck(ctx: JobContext, step: string, file: string): Promise<string> {
  return rdb(ctx, step, ['check', file]);
}

/** Fills the empty `dataDir` with the file's keys as basalt-server's log. */
export function rdbImport(ctx: JobContext, step: string, file: string, dataDir: string): Promise<string> {
  return rdb(ctx, step, ['import', file, '--data-dir', dataDir, '--databases', String(ENGINE_DATABASES)]);
}

/** Writes the data dir's contents (after its recovery.target, if any) as an RDB file. */
export function rdbExport(ctx: JobContext, step: string, dataDir: string, out: string): Promise<string> {
  return rdb(ctx, step, ['export', '--data-dir', dataDir, '--out', out, '--databases', String(ENGINE_DATABASES)]);
}
