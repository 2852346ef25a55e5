#!/usr/bin/env bash
# What a base backup costs the clients (issue 44; goal: mixed throughput >= 0.9x of the same
# load without one). A base reads the log's segments with BACKUP READ, as the control plane's
# backup job and archiver do; this reads EVERY segment in 8 MiB pieces, again and again for
# the whole run, the worst case (a real base reads only what the archive has not stored, and
# the archiver only the last second's tail). Rounds alternate `idle` and `base`; the load is
# memtier's default mix (1:10 SET:GET) on data filled first. Both share the host's cores;
# pass `pinned` to put the server on core 0 and the load and the reader on core 1. A read
# rate (MB/s, 0 = as fast as it goes) paces the reader as the worker paces a base's reads.
# Usage (in engine/, after cargo build --release -p basalt-server -p basalt-bench):
#   bench/scripts/backup-impact.sh [rounds=3] [seconds=10] [keys=200000] [value bytes=1024] [shared|pinned] [MB/s=0]
set -euo pipefail
cd "$(dirname "$0")/../.."
. bench/scripts/lib.sh
ROUNDS=${1:-3} SECONDS_PER_RUN=${2:-10} KEYS=${3:-200000} SIZE=${4:-1024} SEAT=${5:-shared} RATE=${6:-0}
WORK=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$WORK"' EXIT
server_cpu=() load_cpu=()
if [ "$SEAT" = pinned ]; then server_cpu=(taskset -c 0); load_cpu=(taskset -c 1); fi
port=$(free_port)
mkdir -p "$WORK/data"
# A service user of the platform's own (BACKUP is refused to every other user), and an open default.
printf 'user default on nopass ~* &* +@all\nuser basalt:backup on nopass ~* &* +@all +backup\n' >"$WORK/users.acl"
# As the platform deploys it: each piece BACKUP READ returns sealed with the instance's key.
head -c 32 /dev/urandom >"$WORK/backup.key"
"${server_cpu[@]}" target/release/basalt-server --port "$port" --dir "$WORK/data" --fsync everysec --archive yes --backup-key-file "$WORK/backup.key" --users-file "$WORK/users.acl" >"$WORK/server.log" 2>&1 &
wait_port "$port"
bench() { "${load_cpu[@]}" target/release/basalt-bench -s 127.0.0.1 -p "$port" -t 2 -c 25 --key-maximum "$KEYS" -d "$SIZE" --hide-histogram "$@" 2>/dev/null; }
bench --ratio 1:0 --key-pattern P:P -n $(( KEYS / 50 )) >/dev/null
cli() { redis-cli -p "$port" --user basalt:backup --pass x --no-auth-warning "$@"; }
segments() { cli BACKUP SEGMENTS | awk 'prev == "id" {id = $0} prev == "bytes" {print id, $0} {prev = $0}'; }
echo "log: $(segments | wc -l) segments, $(segments | awk '{s += $2} END {print s}') bytes"
run() { # idle | base
  local stop="$WORK/stop-$RANDOM" reader= rate
  if [ "$1" = base ]; then "${load_cpu[@]}" python3 bench/scripts/backup-reader.py "$port" "$RATE" "$stop" & reader=$!; fi
  rate=$(bench --ratio 1:10 --test-time "$SECONDS_PER_RUN" | awk '$1 == "Totals" {print $2; exit}')
  touch "$stop"; [ -n "$reader" ] && wait "$reader" || true
  echo "$1 $rate"
}
echo "round ops/s ($SEAT, reads at ${RATE:-0} MB/s, 0 = unpaced)"
for _ in $(seq "$ROUNDS"); do for mode in idle base; do run "$mode" | tee -a "$WORK/results"; done; done
idle=$(awk '$1 == "idle" {print $2}' "$WORK/results" | median)
base=$(awk '$1 == "base" {print $2}' "$WORK/results" | median)
echo "median idle $idle ops/s, during a base read $base ops/s: $(awk -v a="$base" -v b="$idle" 'BEGIN {printf "%.2f", a / b}')x"
