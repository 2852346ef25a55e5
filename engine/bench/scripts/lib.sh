# Shared by the benchmark scripts here (sourced): small helpers each of them needs.

# A free TCP port on loopback.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# CPU time (user + system, clock ticks) a process has used: the server's CPU per request.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
