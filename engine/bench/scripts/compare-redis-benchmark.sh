#!/usr/bin/env bash
# basalt-bench vs redis-benchmark against one redis-server, same connections and pipeline.
# The server runs on CPU 0 and the client on CPU 1 (taskset), so neither tool shares a core
# with the server. Each case runs ROUNDS times per tool, alternating; the median is printed.
#
#   engine/bench/scripts/compare-redis-benchmark.sh [ROUNDS]
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=${BASALT_BENCH_BIN:-$HERE/../../target/release/basalt-bench}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
DIR=$(mktemp -d)
PORT=$(free_port)

taskset -c "$SERVER_CPU" redis-server --port "$PORT" --bind 127.0.0.1 --dir "$DIR" --save '' --appendonly no \
  --daemonize yes --pidfile "$DIR/pid" --logfile "$DIR/log"
trap 'redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done


# Client CPU seconds (user+sys) per million requests, from /usr/bin/time.
cpu_per_m() { awk -v n="$2" '{printf "%.2f", ($1+$2) * 1000000 / n}' "$1"; }
# The server's own CPU seconds so far (INFO cpu), to charge each run's server work per request.
server_cpu() { redis-cli -p "$PORT" info cpu | awk -F: '/^used_cpu_(sys|user):/ {s+=$2} END {printf "%.3f", s}'; }
server_per_m() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {printf "%.2f", (b-a) * 1000000 / n}'; }

# redis-benchmark: -c connections, -P pipeline; CSV gives rps and p99 (ms).
rb() { # command conns pipeline size requests
  local out before
  before=$(server_cpu)
  out=$(/usr/bin/time -f '%U %S' -o "$DIR/time" taskset -c "$CLIENT_CPU" redis-benchmark -p "$PORT" -c "$2" -P "$3" -d "$4" \
    -n "$5" -r 128000 -t "$1" --csv 2>/dev/null | awk -F'","' '/^"(SET|GET)/ {gsub(/"/,"",$7); print $2, $7}')
  echo "$out $(cpu_per_m "$DIR/time" "$5") $(server_per_m "$before" "$(server_cpu)" "$5")"
}
# basalt-bench: 1 thread x conns clients, same total requests, SET only.
bb() { # command conns pipeline size requests
  local out ratio=1:0 before
  [ "$1" = get ] && ratio=0:1
  before=$(server_cpu)
  out=$(/usr/bin/time -f '%U %S' -o "$DIR/time" taskset -c "$CLIENT_CPU" "$BENCH" -p "$PORT" -t 1 -c "$2" --pipeline="$3" \
    -d "$4" -n $(( $5 / $2 )) --ratio=$ratio --key-minimum=1 --key-maximum=128000 --random-data --distinct-client-seed \
    --hide-histogram 2>/dev/null | awk '$1=="Totals" {print $2, $7}')
  echo "$out $(cpu_per_m "$DIR/time" "$5") $(server_per_m "$before" "$(server_cpu)" "$5")"
}

# Fill the key range first so GETs hit (both tools use 1..128000-ish numbers, different names).
"$BENCH" -p "$PORT" -t 1 -c 8 -n allkeys --key-pattern=P:P --key-minimum=1 --key-maximum=128000 --ratio=1:0 -d 32 \
  --key-prefix=memtier- --pipeline=32 --hide-histogram >/dev/null 2>&1

printf '%-28s | %10s %8s %7s %7s | %10s %8s %7s %7s\n' "same conns & pipeline" \
  "rb ops/s" "rb p99" "rb cli" "rb srv" "bb ops/s" "bb p99" "bb cli" "bb srv"
for spec in "set 50 1 32 200000" "set 50 32 32 2000000" "get 50 1 32 200000" "get 50 32 32 2000000" \
            "set 8 1 128 200000" "set 8 32 128 1000000"; do
  set -- $spec
  : > "$DIR/rb"; : > "$DIR/bb"
  for _ in $(seq "$ROUNDS"); do
    rb "$@" >> "$DIR/rb"
    bb "$@" >> "$DIR/bb"
  done
  col() { cut -d' ' -f"$2" "$DIR/$1" | median; }
  printf '%-28s | %10.0f %8.3f %7s %7s | %10.0f %8.3f %7s %7s\n' "${1^^} c=$2 P=$3 d=$4 n=$5" \
    "$(col rb 1)" "$(col rb 2)" "$(col rb 3)" "$(col rb 4)" "$(col bb 1)" "$(col bb 2)" "$(col bb 3)" "$(col bb 4)"
done
