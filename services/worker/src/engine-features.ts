// What the basalt-server binary being deployed supports: users (--users-file), an IP
// allowlist (--allowlist) and its exempt user (--allowlist-exempt-user), TLS (--tls-port),
// the log archive (--archive). The role renders only those settings, since
// the engine refuses config keys it does not know. Each flag is probed by running the
// binary with it and a bad --port: an engine that knows the flag stops at the port, one
// that does not says `unknown option`. Nothing starts listening.
// BASALT_ENGINE_FEATURES (comma-separated), when set, says it instead.
import { runCommand } from './process.js';

const PROBES: Record<string, string[]> = {
  users: ['--users-file', '/nonexistent/basalt-probe.acl'],
  allowlist: ['--allowlist', '127.0.0.1/32'],
  tls: ['--tls-port', '6380'],
  // The control plane's user may log in from outside the customer's allowlist (issue 15).
  'allowlist-exempt-user': ['--allowlist-exempt-user', 'basalt:probe'],
  // The log archive and BACKUP READ's key (issue 44): an older engine refuses the [backup] table.
  archive: ['--archive', 'yes'],
};

export async function detectEngineFeatures(binary: string, env: NodeJS.ProcessEnv = process.env): Promise<Set<string>> {
  if (env.BASALT_ENGINE_FEATURES !== undefined) {
    return new Set(env.BASALT_ENGINE_FEATURES.split(',').map((f) => f.trim()).filter(Boolean));
  }
  const found = new Set<string>();
  for (const [feature, flag] of Object.entries(PROBES)) {
    const result = await runCommand(binary, [...flag, '--port', 'not-a-port'], { timeoutMs: 10_000 });
    const output = result.stdout + result.stderr;
    if (result.exitCode !== null && !result.timedOut && !output.includes(`unknown option ${flag[0]}`) && /port/.test(output)) {
      found.add(feature);
    }
  }
  return found;
}
