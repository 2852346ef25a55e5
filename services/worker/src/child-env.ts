// The environment of the tools the worker runs (Terraform, Ansible, the engine probe): an
// allowlist, never the worker's own environment, which holds BASALT_MASTER_KEY and the
// superuser DATABASE_URL. What a child must have on top (Terraform's state URL) is passed
// by its caller, for that child only.

/** Variables a tool may need to run: where things are, the locale, the temp dir. */
const PASSED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TERM',
  // Where the project's tools and binaries are (docs/DEVELOPING.md).
  'BASALT_ROOT',
  'BASALT_ENGINE_BIN',
  'BASALT_BENCH_BIN',
  'TF_CLI_CONFIG_FILE',
  'TF_PLUGIN_CACHE_DIR',
  'CHECKPOINT_DISABLE',
];

/** Never passed, whatever prefix or list they would match. */
const SECRET = /KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL|PG_CONN_STR|CREDENTIAL/i;

export function childEnv(extra: Record<string, string> = {}, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED) if (base[name] !== undefined) env[name] = base[name];
  // Settings of the tools themselves (ANSIBLE_CONFIG, TF_LOG, ...), minus anything secret-looking.
  for (const [name, value] of Object.entries(base)) {
    if ((name.startsWith('ANSIBLE_') || name.startsWith('TF_')) && !SECRET.test(name) && value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
