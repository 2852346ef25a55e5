// Terraform 1.5.7 (MPL), built from source with the Go toolchain into .tools/bin.
import fs from 'node:fs';
import path from 'node:path';
import { TOOLS_BIN, toolEnv } from '../lib/paths.mjs';
import { run, runAsync, have, tail } from '../lib/proc.mjs';
import { writeTerraformRc } from '../lib/terraformrc.mjs';

const VERSION = '1.5.7';

export async function terraform() {
  const bin = path.join(TOOLS_BIN, 'terraform');
  const rc = writeTerraformRc() ? ', wrote .tools/terraformrc' : '';
  if (fs.existsSync(bin)) {
    const v = run(bin, ['version', '-json'], { env: toolEnv() });
    if (v.code === 0 && JSON.parse(v.stdout).terraform_version === VERSION) return `ready (${VERSION})${rc}`;
  }
  if (!have('go')) throw new Error('Go is needed to build Terraform: install golang (1.21 or newer)');
  fs.mkdirSync(TOOLS_BIN, { recursive: true });
  const r = await runAsync('go', ['install', `github.com/hashicorp/terraform@v${VERSION}`], {
    env: { ...process.env, GOBIN: TOOLS_BIN, GOFLAGS: '-trimpath' },
  });
  if (r.code !== 0) throw new Error(`go install terraform@v${VERSION} failed:\n${tail(r.out)}`);
  return `built ${VERSION}${rc}`;
}
