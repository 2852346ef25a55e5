// The Terraform CLI configuration of this clone (TF_CLI_CONFIG_FILE points at it): written by the
// bootstrap into .tools/, because a filesystem mirror's path must be absolute and this clone's
// provider mirror lives in this clone, not in a directory every clone on the host shares.
import fs from 'node:fs';
import path from 'node:path';
import { PROVIDER_MIRROR, TF_CLI_CONFIG } from './paths.mjs';

/** The file's text: installation is restricted to this clone's own mirror. */
export function terraformRcText(mirror = PROVIDER_MIRROR) {
  return `# Written by the bootstrap (scripts/lib/terraformrc.mjs); TF_CLI_CONFIG_FILE points here.
#
# Only Terraform's built-in provider (terraform_data) is used by the root stack and the
# \`local\` module, so nothing is ever downloaded: installation is restricted to a local
# filesystem mirror, and any other provider fails fast at \`init\` instead of reaching out.
# The bootstrap installs Basalt's own provider (basalt/basalt, apps/terraform-provider) into
# this mirror, so configurations using it (apps/terraform-provider/examples) init offline.
disable_checkpoint = true

provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(mirror)}
    include = ["*/*/*"]
  }
}
`;
}

/** Writes the file if its text differs; says whether it did. */
export function writeTerraformRc() {
  const text = terraformRcText();
  if (fs.existsSync(TF_CLI_CONFIG) && fs.readFileSync(TF_CLI_CONFIG, 'utf8') === text) return false;
  fs.mkdirSync(path.dirname(TF_CLI_CONFIG), { recursive: true });
  fs.writeFileSync(`${TF_CLI_CONFIG}.tmp`, text);
  fs.renameSync(`${TF_CLI_CONFIG}.tmp`, TF_CLI_CONFIG);
  return true;
}
