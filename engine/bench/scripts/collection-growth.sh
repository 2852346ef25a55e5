#!/usr/bin/env bash
# Collection growth, Basalt vs Redis 7 (Debian's redis-server) in one run: HSET into one hash
# and ZADD into one sorted set with redis-benchmark (16 connections, random fields/members
# out of 1,000,000, 25-byte hash values), at each request count given. Both servers persist
# with fsync once a second (Redis: --appendonly yes --appendfsync everysec --save ''; Basalt:
# --fsync everysec); each run starts from an empty data dir. Printed per row: requests/s,
# log bytes per write (Redis: its appendonlydir; Basalt: INFO wal_bytes), server CPU
# microseconds per request (utime+stime from /proc/<pid>/stat), how often each server
# rewrote its log meanwhile (Redis: INFO aof_rewrites, which shrinks its appendonlydir to a
# snapshot once the AOF passes 64 MB; Basalt: INFO wal_compactions), and Basalt/Redis ratios.
# One server runs at a time; client and server are not pinned (they share the 2 cores).
# Each run is bounded by RUN_TIMEOUT seconds (default 300).
# The ycsb row is a YCSB load with the stock Redis binding's command group (basalt-bench ycsb
# load, `redis.command_group=hash`: HMSET of 10 fields of 100 B, then ZADD _indices of the
# key, 16 threads) of COUNT records; its rate is records/s and its bytes are per record.
#
#   engine/bench/scripts/collection-growth.sh [ROUNDS] [COUNTS...]
#   e.g. collection-growth.sh 3 20000 200000 1000000   (medians of 3 rounds)
#   CMDS="ycsb" collection-growth.sh 1 1000000          (rows to run; default hset zadd ycsb)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-1}
shift || true
COUNTS=${*:-20000 200000}
HERE=$(cd "$(dirname "$0")" && pwd)
ENGINE=${BASALT_ENGINE_BIN:-$HERE/../../target/release/basalt-server}
BENCH=${BASALT_BENCH_BIN:-$HERE/../../target/release/basalt-bench}
CMDS=${CMDS:-hset zadd ycsb}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
WORK=$(mktemp -d)
VALUE=vvvvvvvvvvvvvvvvvvvvvvvvv # 25 bytes
PID=

stop() { [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null || true; PID=; }
trap 'stop; rm -rf "$WORK"' EXIT

start() { # server port dir
  mkdir -p "$3"
  if [ "$1" = redis ]; then
    redis-server --port "$2" --bind 127.0.0.1 --dir "$3" --save '' --appendonly yes --appendfsync everysec \
      --logfile "$3/log" &
  else
    "$ENGINE" --port "$2" --bind 127.0.0.1 --dir "$3" --fsync everysec >"$WORK/engine.log" 2>&1 &
  fi
  PID=$!
  for _ in $(seq 100); do redis-cli -p "$2" ping >/dev/null 2>&1 && return; sleep 0.1; done
  echo "$1 did not start" >&2; exit 1
}


# A field of INFO persistence.
persistence() { # port field
  redis-cli -p "$1" info persistence | tr -d '\r' | awk -F: -v k="$2" '$1 == k {print $2}'
}

# Basalt's log bytes are INFO's wal_bytes: its segment files are longer, the active one
# preallocated ahead of the records (wal_disk_bytes), so their lengths measured the
# preallocation, not the writes (134 B per HSET at 1,000,000 requests where the records took
# about 78).
log_bytes() { # server dir port
  if [ "$1" = redis ]; then
    du -sb "$2/appendonlydir" | awk '{print $1}'
  else
    persistence "$3" wal_bytes
  fi
}

rewrites() { # server port
  persistence "$2" "$([ "$1" = redis ] && echo aof_rewrites || echo wal_compactions)"
}

# One run: prints "requests/s log-bytes-per-write cpu-us-per-request log-rewrites".
run() { # server command count
  local port dir before after rps bytes rw
  port=$(free_port)
  dir="$WORK/$1-$2-$3-$RANDOM"
  start "$1" "$port" "$dir"
  before=$(cpu_ticks "$PID")
  case "$2" in
    hset) set -- "$1" "$2" "$3" hset bighash __rand_int__ "$VALUE" ;;
    zadd) set -- "$1" "$2" "$3" zadd bigzset __rand_int__ member:__rand_int__ ;;
  esac
  if [ "$2" = ycsb ]; then
    rps=$(timeout "$RUN_TIMEOUT" "$BENCH" ycsb load redis -P workloads/workloada -p redis.host=127.0.0.1 \
      -p redis.port="$port" -p recordcount="$3" -p redis.command_group=hash -threads 16 2>/dev/null | ycsb_rate)
  else
    rps=$(timeout "$RUN_TIMEOUT" redis-benchmark -p "$port" -n "$3" -r 1000000 -c 16 --csv "${@:4}" 2>/dev/null |
      awk -F'","' 'NR==2 {print $2}')
  fi
  after=$(cpu_ticks "$PID")
  sleep 1.2 # the everysec flush of both servers
  bytes=$(log_bytes "$1" "$dir" "$port")
  rw=$(rewrites "$1" "$port")
  stop
  rm -rf "$dir"
  awk -v r="${rps:-0}" -v b="$bytes" -v n="$3" -v t0="$before" -v t1="$after" -v hz="$(getconf CLK_TCK)" -v w="${rw:-0}" \
    'BEGIN {printf "%.0f %.1f %.2f %d\n", r, b / n, (t1 - t0) / hz * 1e6 / n, w}'
}


printf '%-5s %8s | %10s %8s %7s %3s | %11s %8s %7s %3s | %6s %6s %6s\n' cmd requests \
  "redis rq/s" "B/write" "cpu us" "rw" "basalt rq/s" "B/write" "cpu us" "rw" "rq/s x" "B x" "cpu x"
for count in $COUNTS; do
  for cmd in $CMDS; do
    : > "$WORK/redis"; : > "$WORK/basalt"
    for _ in $(seq "$ROUNDS"); do
      run redis "$cmd" "$count" >> "$WORK/redis"
      run basalt "$cmd" "$count" >> "$WORK/basalt"
    done
    col() { awk -v c="$2" '{print $c}' "$WORK/$1" | median; }
    r=($(col redis 1) $(col redis 2) $(col redis 3) $(col redis 4))
    b=($(col basalt 1) $(col basalt 2) $(col basalt 3) $(col basalt 4))
    printf '%-5s %8s | %10s %8s %7s %3s | %11s %8s %7s %3s | %6.2f %6.2f %6.2f\n' "$cmd" "$count" \
      "${r[0]}" "${r[1]}" "${r[2]}" "${r[3]}" "${b[0]}" "${b[1]}" "${b[2]}" "${b[3]}" \
      "$(awk -v a="${b[0]}" -v c="${r[0]}" 'BEGIN {print (c > 0 ? a / c : 0)}')" \
      "$(awk -v a="${b[1]}" -v c="${r[1]}" 'BEGIN {print (c > 0 ? a / c : 0)}')" \
      "$(awk -v a="${b[2]}" -v c="${r[2]}" 'BEGIN {print (c > 0 ? a / c : 0)}')"
  done
done
echo "rounds: $ROUNDS (medians); redis-benchmark -c 16 -r 1000000; ycsb: records/s, bytes per record; fsync everysec; unpinned, one server at a time on 2 cores"
