#!/usr/bin/env bash
# The benchmark of issue 6: redis-benchmark (Debian redis-tools) against basalt-server and
# against redis-server (Debian), one after the other, with the same flags: SET and GET,
# 50 clients, -P 1 and -P 32, 128 B and 4 KiB values, at two durabilities
# (Basalt --fsync everysec vs Redis appendfsync everysec, and always vs always).
#
# Cores: the server under test runs on CPU $SERVER_CPU and redis-benchmark on CPU $CLIENT_CPU
# (taskset), so each server gets one core, as Redis' one event-loop thread uses. Basalt runs
# with --threads 1. Each cell is the median of $ROUNDS runs, Basalt and Redis alternating.
#
#   engine/bench/scripts/vs-redis.sh [ROUNDS]      (prints a markdown table)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
BASALT=${BASALT_ENGINE_BIN:-$HERE/../../target/release/basalt-server}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
N_P1=${N_P1:-100000}
N_P32=${N_P32:-500000}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$WORK"; }
trap cleanup EXIT

wait_ping() { for _ in $(seq 100); do redis-cli -p "$1" ping >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "no PING on $1" >&2; exit 1; }

# Both set a global (BPORT, RPORT): a command substitution would run them in a subshell.
start_basalt() { # fsync
  local dir="$WORK/basalt-$1"; mkdir -p "$dir"; BPORT=$(free_port)
  taskset -c "$SERVER_CPU" "$BASALT" --bind 127.0.0.1 --port "$BPORT" --dir "$dir" --fsync "$1" --threads 1 \
    >"$dir.log" 2>&1 &
  BPID=$!; PIDS+=($!); wait_ping "$BPORT"
}
start_redis() { # appendfsync
  local dir="$WORK/redis-$1"; mkdir -p "$dir"; RPORT=$(free_port)
  taskset -c "$SERVER_CPU" redis-server --bind 127.0.0.1 --port "$RPORT" --dir "$dir" --save '' \
    --appendonly yes --appendfsync "$1" --daemonize no --logfile "$dir.log" &
  RPID=$!; PIDS+=($!); wait_ping "$RPORT"
}



# One redis-benchmark run of SET then GET; prints "set_rps set_p99 get_rps get_p99 cpu_us"
# where cpu_us is the server's CPU time (user + system) per request, which, unlike ops/s,
# does not depend on how busy the rest of the machine is.
run() { # port pid pipeline size requests
  local t0 t1 out
  t0=$(cpu_ticks "$2")
  out=$(taskset -c "$CLIENT_CPU" redis-benchmark -p "$1" -c 50 -P "$3" -d "$4" -n "$5" -r 100000 -t set,get --csv 2>/dev/null |
    awk -F'","' '/^"SET"/ {gsub(/"/,"",$7); s=$2" "$7} /^"GET"/ {gsub(/"/,"",$7); g=$2" "$7} END {print s, g}')
  t1=$(cpu_ticks "$2")
  echo "$out $(awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v n="$5" 'BEGIN {printf "%.1f", t / hz * 1e6 / (2 * n)}')"
}

fsync_latency() { # dir -> "p50 p99" in microseconds, fdatasync after a 128-byte append
  python3 - "$1" <<'PY'
import os, sys, time
p = os.path.join(sys.argv[1], "fsync-probe"); fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
lat = []
for _ in range(300):
    os.write(fd, b"x" * 128); t = time.perf_counter(); os.fdatasync(fd); lat.append(time.perf_counter() - t)
os.close(fd); os.unlink(p); lat.sort()
print("%.0f %.0f" % (lat[len(lat) // 2] * 1e6, lat[int(len(lat) * 0.99)] * 1e6))
PY
}

read -r F50 F99 <<<"$(fsync_latency "$WORK")"
echo "fsync latency of $WORK's file system (fdatasync after a 128-byte append): p50 ${F50} us, p99 ${F99} us"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| durability | -P | value | cmd | Basalt ops/s | Redis ops/s | Basalt/Redis | Basalt p99 ms | Redis p99 ms | server CPU us/req Basalt / Redis |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for mode in everysec always; do
  start_basalt "$mode"; start_redis "$mode"; bport=$BPORT; rport=$RPORT
  for P in 1 32; do
    n=$N_P1; [ "$P" = 32 ] && n=$N_P32
    for size in 128 4096; do
      : >"$WORK/b"; : >"$WORK/r"
      for _ in $(seq "$ROUNDS"); do
        run "$bport" "$BPID" "$P" "$size" "$n" >>"$WORK/b"
        run "$rport" "$RPID" "$P" "$size" "$n" >>"$WORK/r"
      done
      for c in SET GET; do
        if [ $c = SET ]; then i=1; else i=3; fi
        b=$(cut -d' ' -f$i "$WORK/b" | median); r=$(cut -d' ' -f$i "$WORK/r" | median)
        bp=$(cut -d' ' -f$((i + 1)) "$WORK/b" | median); rp=$(cut -d' ' -f$((i + 1)) "$WORK/r" | median)
        ratio=$(awk -v b="$b" -v r="$r" 'BEGIN {printf "%.2f", b / r}')
        cpu="$(cut -d' ' -f5 "$WORK/b" | median) / $(cut -d' ' -f5 "$WORK/r" | median)"
        [ $c = GET ] && cpu="(SET+GET together)"
        echo "| $mode | $P | $size B | $c | $b | $r | $ratio | $bp | $rp | $cpu |"
      done
    done
  done
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; PIDS=(); sleep 0.5
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
