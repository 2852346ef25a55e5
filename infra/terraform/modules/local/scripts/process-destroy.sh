#!/usr/bin/env bash
# Destroy one process VM: stop its supervisor and engine, remove its directory.
set -euo pipefail
: "${VM_DIR:?}"
stop() {
  local file=$1 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}
# The supervisor first, so that it does not start the engine again.
stop "$VM_DIR/run/supervisor.pid"
stop "$VM_DIR/run/engine.pid"
rm -rf "$VM_DIR"
echo "process VM $(basename "$VM_DIR") is destroyed"
