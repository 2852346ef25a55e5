#!/usr/bin/env bash
# basalt-bench vs redis-benchmark against one redis-server, same connections and pipeline.
# The server runs on CPU 0 and the client on CPU 1 (taskset), so neither tool shares a core
# with the server. Each case runs ROUNDS times per tool, alternating; the median is printed.
#
#   engine/bench/scripts/compare-redis-benchmark.sh [ROUNDS]
set -euo pipefail

ROUNDS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=${BASALT_BENCH_BIN:-$HERE/../../target/release/basalt-bench}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
DIR=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

taskset -c "$SERVER_CPU" redis-server --port "$PORT" --bind 127.0.0.1 --dir "$DIR" --save '' --appendonly no \
  --daemonize yes --pidfile "$DIR/pid" --logfile "$DIR/log"
trap 'redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done

median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Client CPU seconds (user+sys) per million requests, from /usr/bin/time.
cpu_per_m() { awk -v n="$2" '{printf "%.2f", ($1+$2) * 1000000 / n}' "$1"; }

# redis-benchmark: -c connections, -P pipeline; CSV gives rps and p99 (ms).
rb() { # conns pipeline size requests
  local out
  out=$(/usr/bin/time -f '%U %S' -o "$DIR/time" taskset -c "$CLIENT_CPU" redis-benchmark -p "$PORT" -c "$1" -P "$2" -d "$3" \
    -n "$4" -r 128000 -t set --csv 2>/dev/null | awk -F'","' '/^"SET/ {gsub(/"/,"",$7); print $2, $7}')
  echo "$out $(cpu_per_m "$DIR/time" "$4")"
}
# basalt-bench: 1 thread x conns clients, same total requests, SET only.
bb() { # conns pipeline size requests
  local out
  out=$(/usr/bin/time -f '%U %S' -o "$DIR/time" taskset -c "$CLIENT_CPU" "$BENCH" -p "$PORT" -t 1 -c "$1" --pipeline="$2" \
    -d "$3" -n $(( $4 / $1 )) --ratio=1:0 --key-minimum=1 --key-maximum=128000 --random-data --distinct-client-seed \
    --hide-histogram 2>/dev/null | awk '$1=="Totals" {print $2, $7}')
  echo "$out $(cpu_per_m "$DIR/time" "$4")"
}

printf '%-28s | %12s %9s %8s | %12s %9s %8s\n' "SET, same conns & pipeline" "rb ops/s" "rb p99" "rb cpu/M" "bb ops/s" "bb p99" "bb cpu/M"
for spec in "50 1 32 200000" "50 32 32 2000000" "8 1 128 200000" "8 32 128 1000000"; do
  set -- $spec
  : > "$DIR/rb"; : > "$DIR/bb"
  for _ in $(seq "$ROUNDS"); do
    rb "$@" >> "$DIR/rb"
    bb "$@" >> "$DIR/bb"
  done
  col() { cut -d' ' -f"$2" "$DIR/$1" | median; }
  printf '%-28s | %12s %9s %8s | %12s %9s %8s\n' "c=$1 P=$2 d=$3 n=$4" \
    "$(col rb 1)" "$(col rb 2)" "$(col rb 3)" "$(col bb 1)" "$(col bb 2)" "$(col bb 3)"
done
