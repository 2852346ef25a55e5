#!/usr/bin/env bash
# Issue 17's speed table in one run: basalt-server against redis-server 7 (Debian) with
# basalt-bench's memtier flags — write-only, read-only (after a load) and mixed 1:1, ping-pong
# and --pipeline=32, 128 B and 4 KB values, at two durabilities (Basalt --fsync everysec vs
# Redis appendfsync everysec; always vs always) — then the memcached port against memcached
# (Debian, -t 2), then Basalt's TLS and encryption at rest against its own plaintext.
#
# Every cell: ROUNDS runs of ROW_SECONDS each, Basalt and its peer alternating; the median is
# printed, with the range of the per-round ratios. Beside QPS: p99, and the server's CPU time
# (user + system, /proc/<pid>/stat) per request, which carries over to bigger machines where
# QPS on two shared cores does not.
#
# Cores: unpinned by default (client and servers share the host's cores, as the issue measured);
# PIN=1 puts the server on CPU $SERVER_CPU and the client on CPU $CLIENT_CPU. Basalt runs with
# its default threads (cores - 1, at least 1); BASALT_FLAGS adds flags to every Basalt server,
# e.g. BASALT_FLAGS="--threads 2" (bench/README.md, "Tail latency on two shared cores", says
# what a second thread does to p99 on two shared cores).
#
#   engine/bench/scripts/speed-table.sh            (ROUNDS=3 ROW_SECONDS=4 CONNECTIONS=64 KEYS=50000)
#   SECTIONS="memcached" speed-table.sh            (some of the three: redis memcached encryption)
#   FSYNCS="always" speed-table.sh                 (the redis section's durabilities: everysec always)
#   FRESH=1 speed-table.sh                         (the redis section starts a new, loaded pair of
#                                                   servers for each row, so no row's p99 carries the
#                                                   compactions and AOF rewrites of the rows before it)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

ROUNDS=${ROUNDS:-3}
FSYNCS=${FSYNCS:-everysec always}
ROW_SECONDS=${ROW_SECONDS:-4}
CONNECTIONS=${CONNECTIONS:-64}
KEYS=${KEYS:-50000}
FRESH=${FRESH:-0}
case $FRESH in 0|1) ;; *) echo "speed-table.sh: FRESH is 0 or 1, not '$FRESH'" >&2; exit 2 ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
BASALT=${BASALT_ENGINE_BIN:-$HERE/../../target/release/basalt-server}
BENCH=${BASALT_BENCH_BIN:-$HERE/../../target/release/basalt-bench}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
read -ra BASALT_EXTRA <<<"${BASALT_FLAGS:-}"
SECTIONS=" ${SECTIONS:-redis memcached encryption} "
section() { [[ $SECTIONS == *" $1 "* ]]; }
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.5; rm -rf "$WORK"; }
trap cleanup EXIT

# exec: the background job is the server itself (its pid is the one measured and stopped).
server_cmd() { if [ "${PIN:-0}" = 1 ]; then exec taskset -c "$SERVER_CPU" "$@"; else exec "$@"; fi; }
client_cmd() { if [ "${PIN:-0}" = 1 ]; then taskset -c "$CLIENT_CPU" "$@"; else "$@"; fi; }
stop_all() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; PIDS=(); sleep 0.5; }

# Each sets globals (a command substitution would start the server in a subshell).
start_basalt() { # name fsync [extra flags...]
  local name=$1 fsync=$2; shift 2
  local dir="$WORK/$name"; mkdir -p "$dir"; PORT=$(free_port)
  server_cmd "$BASALT" --bind 127.0.0.1 --port "$PORT" --dir "$dir" --fsync "$fsync" "$@" ${BASALT_EXTRA[@]+"${BASALT_EXTRA[@]}"} >"$dir.log" 2>&1 &
  PID=$!; PIDS+=($!); wait_port "$PORT"
}
start_redis() { # name appendfsync
  local dir="$WORK/$1"; mkdir -p "$dir"; PORT=$(free_port)
  server_cmd redis-server --bind 127.0.0.1 --port "$PORT" --dir "$dir" --save '' \
    --appendonly yes --appendfsync "$2" --daemonize no --logfile "$dir.log" &
  PID=$!; PIDS+=($!); wait_port "$PORT"
}
start_memcached() {
  PORT=$(free_port)
  server_cmd memcached -u "$(id -un)" -l 127.0.0.1 -p "$PORT" -U 0 -t 2 -m 2048 &
  PID=$!; PIDS+=($!); wait_port "$PORT"
}

# One basalt-bench run; prints "ops_per_sec p99_ms cpu_us_per_request".
bench() { # port pid [basalt-bench flags...]
  local port=$1 pid=$2; shift 2
  local t0 t1 json="$WORK/run.json"
  t0=$(cpu_ticks "$pid")
  client_cmd "$BENCH" -s 127.0.0.1 -p "$port" --threads=2 --clients=$((CONNECTIONS / 2)) --hide-histogram \
    --print-percentiles=50,99 --json-out-file="$json" "$@" >/dev/null 2>&1
  t1=$(cpu_ticks "$pid")
  python3 - "$json" "$((t1 - t0))" "$(getconf CLK_TCK)" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["ALL STATS"]["Totals"]
ticks, hz = int(sys.argv[2]), int(sys.argv[3])
print("%.0f %.3f %.2f" % (t["Ops/sec"], t["Percentile Latencies"]["p99.00"], ticks / hz * 1e6 / max(1, t["Count"])))
PY
}

# The median of column $1 of a file; "min-max" of the per-round ratio of two files' column $1.
column_median() { cut -d' ' -f"$1" "$2" | median; }
ratio_range() { paste -d' ' <(cut -d' ' -f"$1" "$2") <(cut -d' ' -f"$1" "$3") |
  awk '{r=$1/$2; if (NR==1||r<lo) lo=r; if (NR==1||r>hi) hi=r} END {printf "%.2f-%.2f", lo, hi}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

# Rounds of one row against two servers (a: Basalt, b: the peer); prints the table line.
# A_FLAGS: flags for server a only (TLS).
A_FLAGS=()
row() { # label a_port a_pid b_port b_pid [flags...]
  local label=$1 ap=$2 apid=$3 bp=$4 bpid=$5; shift 5
  : >"$WORK/a"; : >"$WORK/b"
  for _ in $(seq "$ROUNDS"); do
    bench "$ap" "$apid" "$@" ${A_FLAGS[@]+"${A_FLAGS[@]}"} >>"$WORK/a"
    bench "$bp" "$bpid" "$@" >>"$WORK/b"
  done
  local aq bq a99 b99 acpu bcpu
  aq=$(column_median 1 "$WORK/a"); bq=$(column_median 1 "$WORK/b"); a99=$(column_median 2 "$WORK/a"); b99=$(column_median 2 "$WORK/b")
  acpu=$(column_median 3 "$WORK/a"); bcpu=$(column_median 3 "$WORK/b")
  echo "| $label | $aq | $bq | **$(ratio "$aq" "$bq")** ($(ratio_range 1 "$WORK/a" "$WORK/b")) | $a99 | $b99 | $(ratio "$a99" "$b99") | $acpu | $bcpu | $(ratio "$acpu" "$bcpu") |"
}

KEYFLAGS=(--key-prefix=speed- --key-minimum=1 "--key-maximum=$KEYS" --random-data)
# Each connection draws its own keys (as the reference reports and the product's suites do);
# without the flag memtier gives all 64 connections the same sequence of random keys.
TIMED=(--test-time="$ROW_SECONDS" --distinct-client-seed)
# A load of every key (each connection its own slice), so read rows hit.
load() { bench "$1" "$2" "${KEYFLAGS[@]}" "--data-size=$3" --ratio=1:0 --key-pattern=P:P --requests=allkeys "${@:4}" >/dev/null; }

HEADER="| Basalt ops/s | peer ops/s | Basalt/peer (range) | Basalt p99 ms | peer p99 ms | p99 ratio | Basalt CPU us/req | peer CPU us/req | CPU ratio |"
RULE="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"

echo "basalt-server: $BASALT; basalt-bench: $BENCH; $(redis-server --version | cut -d' ' -f1-3); memcached $(memcached -V | cut -d' ' -f2)"
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); cores $( [ "${PIN:-0}" = 1 ] && echo "pinned: server CPU $SERVER_CPU, client CPU $CLIENT_CPU" || echo "shared by client and server (unpinned)")"
echo "Basalt flags besides each row's: ${BASALT_FLAGS:-none}"
echo "rows: $CONNECTIONS connections (2 client threads), $ROW_SECONDS s per run, $ROUNDS rounds alternating, medians; $KEYS keys"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if section redis; then
  echo "## Basalt vs Redis (peer: redis-server, AOF with the same fsync policy)"
  echo
  echo "| fsync / value / pipeline / workload $HEADER"
  echo "$RULE"
  # A pair of servers, loaded with every key at one size; FRESH=1 starts a pair for each row.
  pair() { # name fsync size
    start_basalt "basalt-$1" "$2"; BPORT=$PORT; BPID=$PID
    start_redis "redis-$1" "$2"; RPORT=$PORT; RPID=$PID
    load "$BPORT" "$BPID" "$3"; load "$RPORT" "$RPID" "$3"
  }
  unpair() { stop_all; rm -rf "$WORK/basalt-$1" "$WORK/redis-$1"; } # name
  for fsync in $FSYNCS; do
    for size in 128 4096; do
      [ "$FRESH" = 1 ] || pair "$fsync-$size" "$fsync" "$size"
      for pipeline in 1 32; do
        for workload in write read mixed; do
          case $workload in write) r=1:0 ;; read) r=0:1 ;; mixed) r=1:1 ;; esac
          [ "$FRESH" = 0 ] || pair "$fsync-$size-$pipeline-$workload" "$fsync" "$size"
          row "$fsync / $size B / $pipeline / $workload" "$BPORT" "$BPID" "$RPORT" "$RPID" \
            "${KEYFLAGS[@]}" "${TIMED[@]}" "--data-size=$size" "--ratio=$r" --key-pattern=R:R "--pipeline=$pipeline"
          [ "$FRESH" = 0 ] || unpair "$fsync-$size-$pipeline-$workload"
        done
      done
      [ "$FRESH" = 1 ] || unpair "$fsync-$size"
    done
  done

fi

if section memcached; then
  echo
  echo "## Basalt's memcached port vs memcached (-t 2)"
  echo
  echo "| value / pipeline / workload $HEADER"
  echo "$RULE"
  start_basalt basalt-mc everysec --memcached-port "$(free_port)"; BPID=$PID
  BMC=$(redis-cli -p "$PORT" config get memcached-port | tail -1); wait_port "$BMC"
  start_memcached; MPORT=$PORT; MPID=$PID
  for size in 128 4096; do
    load "$BMC" "$BPID" "$size" --protocol=memcache_text; load "$MPORT" "$MPID" "$size" --protocol=memcache_text
    for spec in "1 write 1:0" "1 mixed 1:1" "32 read 0:1"; do
      read -r pipeline workload r <<<"$spec"
      row "$size B / $pipeline / $workload" "$BMC" "$BPID" "$MPORT" "$MPID" --protocol=memcache_text \
        "${KEYFLAGS[@]}" "${TIMED[@]}" "--data-size=$size" "--ratio=$r" --key-pattern=R:R "--pipeline=$pipeline"
    done
  done
  stop_all

fi

if section encryption; then
  echo
  echo "## Basalt with TLS, and with encryption at rest, vs Basalt plaintext (fsync everysec, mixed 1:1, 128 B)"
  echo
  # A CA of the run's own and a server certificate it signs (a self-signed leaf is refused).
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/ca.key" -out "$WORK/ca.crt" -days 1 \
    -subj /CN=speed-table-ca >/dev/null 2>&1
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/tls.key" -out "$WORK/tls.csr" -subj /CN=127.0.0.1 >/dev/null 2>&1
  printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >"$WORK/tls.ext"
  openssl x509 -req -in "$WORK/tls.csr" -CA "$WORK/ca.crt" -CAkey "$WORK/ca.key" -CAcreateserial -out "$WORK/tls.crt" -days 1 \
    -extfile "$WORK/tls.ext" >/dev/null 2>&1
  head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$WORK/at-rest.key"; chmod 600 "$WORK/at-rest.key"
  start_basalt basalt-plain everysec; PPORT=$PORT; PPID_=$PID
  TPORT=$(free_port)
  start_basalt basalt-tls everysec --tls-port "$TPORT" --tls-cert-file "$WORK/tls.crt" --tls-key-file "$WORK/tls.key"; TPID=$PID; wait_port "$TPORT"
  start_basalt basalt-at-rest everysec --encryption-key-file "$WORK/at-rest.key"; EPORT=$PORT; EPID=$PID
  echo "| variant / pipeline $HEADER" | sed 's/peer/plaintext/g'
  echo "$RULE"
  for pipeline in 1 32; do
    load "$PPORT" "$PPID_" 128; load "$EPORT" "$EPID" 128; load "$TPORT" "$TPID" 128 --tls --cacert="$WORK/ca.crt"
    A_FLAGS=(--tls --cacert="$WORK/ca.crt")
    row "TLS / $pipeline" "$TPORT" "$TPID" "$PPORT" "$PPID_" \
      "${KEYFLAGS[@]}" "${TIMED[@]}" --data-size=128 --ratio=1:1 --key-pattern=R:R "--pipeline=$pipeline"
    A_FLAGS=()
    row "at rest / $pipeline" "$EPORT" "$EPID" "$PPORT" "$PPID_" \
      "${KEYFLAGS[@]}" "${TIMED[@]}" --data-size=128 --ratio=1:1 --key-pattern=R:R "--pipeline=$pipeline"
  done
  stop_all
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(the collection-growth rows: engine/bench/scripts/collection-growth.sh)"
