#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI spec with schemathesis (bounded, ~2 minutes) against a real
# PostgreSQL (DATABASE_URL, a superuser URL; a throw-away database is created in it). Fails on
# any 5xx. Called by `npm test` (scripts/lib/suites.mjs); run alone: services/api/scripts/fuzz.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# schemathesis comes from its own venv, which the bootstrap makes from fuzz-requirements.txt
# (`npm test` runs the bootstrap first), so a run needs no registry.
st="$root/.tools/fuzz-py/bin/st"
if [ ! -x "$st" ]; then
  echo "fuzz: $st is missing: run npm run bootstrap" >&2
  exit 1
fi
exec node "$here/fuzz.mjs" "$st" "$@"
