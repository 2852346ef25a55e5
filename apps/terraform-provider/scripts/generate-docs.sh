#!/bin/sh
# Regenerates docs/ (the registry layout) from the provider's schema and examples/ with
# tfplugindocs (a Go tool of this module). The schema comes from the provider the bootstrap
# built and mirrored, read by the repository's Terraform: nothing is downloaded.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export TF_CLI_CONFIG_FILE="$root/.tools/terraformrc" CHECKPOINT_DISABLE=1 TF_DATA_DIR="$work/.terraform"
cp "$here/examples/basic/versions.tf" "$work/"
(cd "$work" && "$root/.tools/bin/terraform" init -input=false -no-color >/dev/null)
(cd "$work" && "$root/.tools/bin/terraform" providers schema -json) > "$work/full.json"
# tfplugindocs looks the schema up by the provider's short name.
node -e '
  const fs = require("fs");
  const j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const key = Object.keys(j.provider_schemas).find((k) => k.endsWith("/basalt/basalt"));
  j.provider_schemas = { basalt: j.provider_schemas[key] };
  fs.writeFileSync(process.argv[2], JSON.stringify(j));
' "$work/full.json" "$work/schema.json"
cd "$here"
go tool tfplugindocs generate --provider-name basalt --rendered-provider-name Basalt --providers-schema "$work/schema.json"
