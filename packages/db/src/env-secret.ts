// A secret the API and the worker read at start: NAME in their environment, or NAME_FILE, the
// path of a file holding it. The platform (scripts/lib/platform.mjs) only ever passes the
// file, so no password or key sits in a process's environment, where /proc/PID/environ,
// `ps e` and every child it starts would see it.
import fs from 'node:fs';

export class SecretEnvError extends Error {}

/** NAME's value, or NAME_FILE's file's contents without the trailing newline; undefined if neither is set. */
export function secretFromEnv(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct && file) throw new SecretEnvError(`set ${name} or ${name}_FILE, not both`);
  if (!file) return direct || undefined;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SecretEnvError(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return text.replace(/\r?\n$/, '') || undefined;
}
