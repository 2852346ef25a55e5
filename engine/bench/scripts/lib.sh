# Shared by the benchmark scripts here (sourced): small helpers each of them needs.

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# CPU time (user + system, clock ticks) a process and its ended children have used: the
# server's CPU per request. The children are Redis's AOF rewrites (a fork each), the work
# Basalt's compaction does in a thread of the server; a child still running when the run ends
# is counted by the run it ends in.
cpu_ticks() { awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat"; }

# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# Waits until something accepts on 127.0.0.1:PORT, at most SECONDS (20 unless told; a server
# under valgrind starts slowly); otherwise prints the tail of every log in $WORK and exits.
wait_port() { # port [seconds]
  local tries=$(( ${2:-20} * 10 ))
  for _ in $(seq "$tries"); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "nothing listens on $1:" >&2; for f in "${WORK:-/nonexistent}"/*.log; do [ -f "$f" ] && tail -n 5 "$f" >&2; done; exit 1
}

# The throughput basalt-bench ycsb prints on stdin ([OVERALL], Throughput(ops/sec), N): N.
ycsb_rate() { awk -F', ' '$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" {print $3}'; }
