#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI spec with schemathesis (bounded, ~2 minutes) against a real
# PostgreSQL (DATABASE_URL, a superuser URL; a throw-away database is created in it). Fails on
# any 5xx. Called by `npm test` (scripts/lib/suites.mjs); run alone: services/api/scripts/fuzz.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# Its own venv with pinned versions (see fuzz-requirements.txt), rebuilt when the pins change.
venv="$root/.tools/fuzz-py"
st="$venv/bin/st"
stamp="$venv/.requirements"
if [ ! -x "$st" ] || ! cmp -s "$here/fuzz-requirements.txt" "$stamp"; then
  echo "fuzz: installing schemathesis into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/fuzz-requirements.txt"
  cp "$here/fuzz-requirements.txt" "$stamp"
fi
exec node "$here/fuzz.mjs" "$st" "$@"
