// What the basalt-server binary being deployed supports, read from its own usage text:
// users (--users-file), an IP allowlist (--allowlist), TLS (--tls-port). The role renders
// only those settings, since the engine refuses config keys it does not know.
// BASALT_ENGINE_FEATURES (comma-separated), when set, says it instead.
import { runCommand } from './process.js';

const FLAGS: Record<string, string> = { users: '--users-file', allowlist: '--allowlist', tls: '--tls-port' };

export async function detectEngineFeatures(binary: string, env: NodeJS.ProcessEnv = process.env): Promise<Set<string>> {
  if (env.BASALT_ENGINE_FEATURES !== undefined) {
    return new Set(env.BASALT_ENGINE_FEATURES.split(',').map((f) => f.trim()).filter(Boolean));
  }
  const result = await runCommand(binary, ['--help'], { timeoutMs: 10_000 });
  const usage = result.stdout + result.stderr;
  return new Set(Object.entries(FLAGS).filter(([, flag]) => usage.includes(flag)).map(([feature]) => feature));
}
