#!/usr/bin/env python3
# Reads every log segment through BACKUP READ, over and over, until the file argv[3] appears:
# what a base backup's upload asks of the engine, on one connection (as the worker's), paced
# to argv[2] MB/s (0: as fast as it goes). argv[1]: the server's port. Used by backup-impact.sh.
import os, socket, sys, time

port, rate, stop = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
sock = socket.create_connection(("127.0.0.1", port))
rfile = sock.makefile("rb")

def call(*args):
    sock.sendall(b"".join([b"*%d\r\n" % len(args)] + [b"$%d\r\n%s\r\n" % (len(a), a) for a in (x.encode() if isinstance(x, str) else x for x in args)]))
    return reply()

def reply():
    line = rfile.readline()
    kind, rest = line[:1], line[1:-2]
    if kind in b"+-:":
        if kind == b"-": raise RuntimeError(rest.decode())
        return rest
    if kind == b"$":
        n = int(rest)
        if n < 0: return None
        data = rfile.read(n + 2)
        return data[:-2]
    if kind == b"*":
        return [reply() for _ in range(int(rest))]
    raise RuntimeError(f"unexpected reply {line!r}")

call("AUTH", "basalt:backup", "x")
CHUNK = 8 << 20
while not os.path.exists(stop):
    for seg in call("BACKUP", "SEGMENTS"):
        fields = dict(zip(seg[0::2], seg[1::2]))
        seg_id, size = fields[b"id"].decode(), int(fields[b"bytes"])
        for off in range(0, size, CHUNK):
            if os.path.exists(stop): break
            call("BACKUP", "READ", seg_id, str(off), str(CHUNK))
            if rate > 0: time.sleep(CHUNK / (rate * 1e6))
