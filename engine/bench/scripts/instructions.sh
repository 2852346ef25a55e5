#!/usr/bin/env bash
# Server instructions per request, Basalt against its peers, counted by valgrind's callgrind
# for a fixed number of requests: the figure of issue 17's "CPU per request" that does not move
# with the host's load (QPS and CPU time on two shared cores do), so a change to the engine can
# be judged while other work runs. What it leaves out: the kernel (system calls, TCP) and what
# the cores do with the instructions (cache misses, contention between threads). What it counts
# besides the requests: each server's timers (Redis' serverCron, Basalt's expiry sweep and log
# thread), which run as often per second under callgrind's ~50x slowdown as without it, so they
# weigh more per request here than at full speed. Compare a row with itself across builds.
#
# Each server runs under callgrind; its counters are zeroed after a warm-up load of every key
# and dumped after the measured requests, so start-up and the load are not counted. Rows:
# 128 B SET and GET, ping-pong and --pipeline=32, and HSET, ZADD and INCR ping-pong, over RESP against Redis 7 (AOF, appendfsync
# everysec; Basalt --fsync everysec), and over the memcached protocol against memcached.
# basalt-bench: REQUESTS per connection, CONNECTIONS connections on one client thread.
#
#   engine/bench/scripts/instructions.sh        (REQUESTS=2500 CONNECTIONS=8 KEYS=50000)
# Needs valgrind (Debian: apt-get install valgrind); callgrind slows a server ~50x.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

REQUESTS=${REQUESTS:-2500}
CONNECTIONS=${CONNECTIONS:-8}
KEYS=${KEYS:-50000}
HERE=$(cd "$(dirname "$0")" && pwd)
BASALT=${BASALT_ENGINE_BIN:-$HERE/../../target/release/basalt-server}
BENCH=${BASALT_BENCH_BIN:-$HERE/../../target/release/basalt-bench}
WORK=$(mktemp -d)
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; sleep 0.5; rm -rf "$WORK"; }
trap cleanup EXIT
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind" >&2; exit 2; }


# under_callgrind NAME PORT command... : starts the server (its pid in PID), waits for PORT.
under_callgrind() {
  local name=$1 port=$2; shift 2
  valgrind --tool=callgrind --callgrind-out-file="$WORK/$name.%p.out" "$@" >"$WORK/$name.log" 2>&1 &
  PID=$!
  wait_port "$port" 60
}

# load PORT [flags]: every key once, not counted.
load() { "$BENCH" -s 127.0.0.1 -p "$1" "${@:2}" --threads=1 --clients="$CONNECTIONS" --data-size=128 --ratio=1:0 \
  --key-pattern=P:P --key-minimum=1 --key-maximum="$KEYS" --requests=allkeys --hide-histogram >/dev/null 2>&1; }

# count PORT RATIO PIPELINE [flags]: instructions per request of the requests it sends.
count() {
  local port=$1 ratio=$2 pipeline=$3; shift 3
  callgrind_control -z "$PID" >/dev/null 2>&1
  "$BENCH" -s 127.0.0.1 -p "$port" "$@" --threads=1 --clients="$CONNECTIONS" --requests="$REQUESTS" --data-size=128 \
    --ratio="$ratio" --pipeline="$pipeline" --key-pattern=R:R --key-minimum=1 --key-maximum="$KEYS" --hide-histogram >/dev/null 2>&1
  rm -f "$WORK"/*.out.*
  callgrind_control -d "$PID" >/dev/null 2>&1
  local dump total
  for _ in $(seq 50); do dump=$(ls "$WORK"/*.out.* 2>/dev/null | head -1); [ -n "$dump" ] && break; sleep 0.2; done
  sleep 0.5
  total=$(awk '/^summary:/ {print $2; exit}' "$dump")
  echo $((total / (REQUESTS * CONNECTIONS)))
}

# commands ARRAY PORT: ping-pong rows of commands SET and GET do not cover, each on keys of its
# own (memtier's --command): a hash field, a member of one sorted set (redis-benchmark's ZADD
# row), a counter.
commands() {
  local -n into=$1
  into[resp-HSET-1]=$(count "$2" 1:0 1 --key-prefix=h- "--command=HSET __key__ field __data__")
  into[resp-ZADD-1]=$(count "$2" 1:0 1 "--command=ZADD zset 1 __key__")
  into[resp-INCR-1]=$(count "$2" 1:0 1 --key-prefix=n- "--command=INCR __key__")
}

stop() { kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true; PID=; }

echo "basalt-server: $BASALT; $(redis-server --version | cut -d' ' -f1-3); memcached $(memcached -V | cut -d' ' -f2); $(valgrind --version)"
echo "$CONNECTIONS connections x $REQUESTS requests per row, 128 B values, $KEYS keys loaded first"
echo
echo "| protocol / workload / pipeline | Basalt instr/req | peer instr/req | Basalt/peer |"
echo "|---|---:|---:|---:|"

declare -A B P
port=$(free_port); mport=$(free_port)
under_callgrind basalt "$port" "$BASALT" --bind 127.0.0.1 --port "$port" --memcached-port "$mport" --dir "$WORK/basalt" --fsync everysec
load "$port"
for row in "SET 1:0 1" "GET 0:1 1" "SET 1:0 32" "GET 0:1 32"; do read -r w r p <<<"$row"; B[resp-$w-$p]=$(count "$port" "$r" "$p"); done
commands B "$port"
load "$mport" --protocol=memcache_text
for row in "set 1:0 1" "get 0:1 1"; do read -r w r p <<<"$row"; B[mc-$w-$p]=$(count "$mport" "$r" "$p" --protocol=memcache_text); done
stop

port=$(free_port); mkdir -p "$WORK/redis"
under_callgrind redis "$port" redis-server --bind 127.0.0.1 --port "$port" --dir "$WORK/redis" --save '' --appendonly yes --appendfsync everysec --daemonize no
load "$port"
for row in "SET 1:0 1" "GET 0:1 1" "SET 1:0 32" "GET 0:1 32"; do read -r w r p <<<"$row"; P[resp-$w-$p]=$(count "$port" "$r" "$p"); done
commands P "$port"
stop

port=$(free_port)
# -c: memcached sets its open-files limit (soft and hard) to its maximum connections, and under
# valgrind only a hard limit equal to the one valgrind shows it is allowed.
conns=$(valgrind --tool=none bash -c 'ulimit -Hn' 2>/dev/null)
under_callgrind memcached "$port" memcached -u "$(id -un)" -l 127.0.0.1 -p "$port" -U 0 -t 2 -m 1024 -c "$conns"
load "$port" --protocol=memcache_text
for row in "set 1:0 1" "get 0:1 1"; do read -r w r p <<<"$row"; P[mc-$w-$p]=$(count "$port" "$r" "$p" --protocol=memcache_text); done
stop

for key in resp-SET-1 resp-GET-1 resp-SET-32 resp-GET-32 resp-HSET-1 resp-ZADD-1 resp-INCR-1 mc-set-1 mc-get-1; do
  IFS=- read -r proto w p <<<"$key"
  peer=$([ "$proto" = resp ] && echo Redis || echo memcached)
  echo "| $proto ($peer) / $w / $p | ${B[$key]} | ${P[$key]} | $(awk -v a="${B[$key]}" -v b="${P[$key]}" 'BEGIN {printf "%.2f", a / b}') |"
done
