#!/usr/bin/env bash
# Archiving's seal interval (issue 44), measured: what sealing once a second costs under
# `fsync always`, by seal mode. `tail` makes the active segment's tail durable (readable by
# BACKUP READ); `segment` ends the active segment each second (a new segment, preallocated,
# the ended one cut to its records); `off` is archiving off. Rounds alternate the modes; each
# prints writes/s, the log's bytes on disk (INFO wal_disk_bytes) and its segment count.
# Usage (in engine/, after cargo build --release -p basalt-server -p basalt-bench):
#   bench/scripts/archive-seal.sh [rounds=3] [seconds=12] [value bytes=128]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/lib.sh
ROUNDS=${1:-3} SECONDS_PER_RUN=${2:-12} SIZE=${3:-128}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
run() { # mode
  local port dir pid rate info
  port=$(free_port); dir="$WORK/data-$1"; rm -rf "$dir"; mkdir -p "$dir"
  local flags=(--port "$port" --dir "$dir" --fsync always --threads 1)
  case $1 in
    off) ;;
    tail) flags+=(--archive yes --archive-seal-interval 1000 --archive-seal-mode tail) ;;
    segment) flags+=(--archive yes --archive-seal-interval 1000 --archive-seal-mode segment) ;;
  esac
  target/release/basalt-server "${flags[@]}" >"$WORK/$1.log" 2>&1 & pid=$!
  wait_port "$port"
  rate=$(target/release/basalt-bench -s 127.0.0.1 -p "$port" -t 2 -c 32 --test-time "$SECONDS_PER_RUN" --ratio 1:0 \
    -d "$SIZE" --key-maximum 100000 --key-prefix= --distinct-client-seed --hide-histogram 2>/dev/null |
    awk '$1 == "Sets" {print $2; exit}')
  info=$(printf 'INFO persistence\r\n' | timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat >&3; sleep 0.3; timeout 0.5 cat <&3" | tr -d "\r" || true)
  kill "$pid"; wait "$pid" || true
  echo "$1 $rate $(grep '^wal_disk_bytes:' <<<"$info" | cut -d: -f2) $(grep '^wal_segments:' <<<"$info" | cut -d: -f2)"
}
echo "mode writes/s wal_disk_bytes wal_segments"
for r in $(seq "$ROUNDS"); do
  for mode in off tail segment; do run "$mode" | tee -a "$WORK/results"; done
done
for mode in off tail segment; do
  echo "median $mode: $(awk -v m="$mode" '$1 == m {print $2}' "$WORK/results" | median) writes/s, $(awk -v m="$mode" '$1 == m {print $3}' "$WORK/results" | median) bytes on disk, $(awk -v m="$mode" '$1 == m {print $4}' "$WORK/results" | median) segments"
done
