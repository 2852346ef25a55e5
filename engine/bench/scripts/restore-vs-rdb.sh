#!/usr/bin/env bash
# Usage (in engine/, as root: caches are dropped before each start; after cargo build --release
# -p basalt-server -p basalt-rdb): bench/scripts/restore-vs-rdb.sh [keys=1000000] [rounds=3]
# Restore speed (issue 44; goal >= 1.0x): basalt-server opening a data dir of N keys (what a restore's last step waits
# for: replaying the log) against redis-server loading an RDB of the same keys. Same data:
# Redis' DEBUG POPULATE, saved, imported into a Basalt dir with basalt-rdb. Rounds alternate.
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${1:-1000000} ROUNDS=${2:-3}
W=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
up() { for _ in $(seq 600); do redis-cli -p "$1" PING 2>/dev/null | grep -q PONG && return 0; sleep 0.02; done; return 1; }
p=$(port); redis-server --port "$p" --dir "$W" --dbfilename dump.rdb --save '' --appendonly no --enable-debug-command yes >/dev/null & rp=$!
up "$p"; redis-cli -p "$p" DEBUG POPULATE "$N" key 100 >/dev/null; redis-cli -p "$p" SAVE >/dev/null; kill $rp; wait $rp || true
target/release/basalt-rdb import "$W/dump.rdb" --data-dir "$W/basalt" >/dev/null
echo "rdb $(stat -c %s "$W/dump.rdb") bytes, basalt log $(du -sb "$W/basalt" | cut -f1) bytes"
for r in $(seq "$ROUNDS"); do
  sync; echo 3 > /proc/sys/vm/drop_caches
  p=$(port); t0=$(date +%s.%N); redis-server --port "$p" --dir "$W" --dbfilename dump.rdb --save '' --appendonly no >/dev/null & rp=$!; up "$p"; t1=$(date +%s.%N); kill $rp; wait $rp || true
  sync; echo 3 > /proc/sys/vm/drop_caches
  p=$(port); t2=$(date +%s.%N); target/release/basalt-server --port "$p" --dir "$W/basalt" >/dev/null 2>&1 & bp=$!; up "$p"; t3=$(date +%s.%N); kill $bp; wait $bp || true
  echo "round $r redis $(echo "$t1 - $t0" | bc) s basalt $(echo "$t3 - $t2" | bc) s"
done
