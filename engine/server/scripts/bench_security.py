#!/usr/bin/env python3
"""Issue-3 benchmarks (engine/bench/README.md, issue-3 section) on a shared 2-core box: throughput
AND server CPU per operation (utime+stime of the server process from /proc, divided by the
operations the load generator counted). CPU per op is far less sensitive to other processes on
the machine than ops/s. Runs alternate A/B; every row is the median of REPS runs of SECS seconds.

  python3 engine/server/scripts/bench_security.py memcache tls [enc]

Needs memcached and openssl-made certificates (PKI dir, see below) for `tls`; `enc` runs the same
basalt-server without and with `--encryption-key-file PKI/at-rest.key` (made if missing).
Environment: BIN (default engine/target/release), PKI (dir with ca.crt, server.crt, server.key,
at-rest.key; default /tmp/basalt-bench-pki), SECS (6), REPS (3). Ports 11411-11412, 16411-16421
on 127.0.0.1; data dirs under /tmp."""
import json, os, signal, subprocess, sys, time, shutil
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
BIN = os.environ.get("BIN", os.path.join(ROOT, "engine", "target", "release"))
PKI = os.environ.get("PKI", "/tmp/basalt-bench-pki")
OUT = "/tmp/basalt-bench-security"; os.makedirs(OUT, exist_ok=True)
TICK = os.sysconf("SC_CLK_TCK")
SECS = int(os.environ.get("SECS", "10")); REPS = int(os.environ.get("REPS", "3"))

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK

def start(cmd, env=None, port=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    time.sleep(1.0)
    return p

def stop(p):
    p.send_signal(signal.SIGTERM); p.wait(timeout=20)

def bench(pid, args, tag):
    f = f"{OUT}/{tag}.json"
    c0 = cpu(pid)
    subprocess.run([f"{BIN}/basalt-bench", "-s", "127.0.0.1", "-t", "2", "-c", "25", "-d", "128", "--key-maximum", "100000",
                    "--test-time", str(SECS), "--hide-histogram", "--json-out-file", f] + args,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    c1 = cpu(pid)
    d = json.load(open(f)); t = d["ALL STATS"]["Totals"]
    ops = t["Count"]; errs = d["errors"]["error replies"]
    return {"ops_s": t["Ops/sec"], "cpu_us_per_op": (c1 - c0) * 1e6 / max(ops, 1), "p50": t["Percentile Latencies"]["p50.00"],
            "p99": t["Percentile Latencies"]["p99.00"], "errors": errs}

def loadavg():
    return open("/proc/loadavg").read().split()[0]

def report(name, rows):
    rows.sort(key=lambda r: r["ops_s"])
    med = rows[len(rows) // 2]
    cpu_med = sorted(r["cpu_us_per_op"] for r in rows)[len(rows) // 2]
    print(f"{name:44s} ops/s median {med['ops_s']:>9.0f} (all {', '.join('%.0f' % r['ops_s'] for r in rows)})  "
          f"server CPU/op median {cpu_med:6.2f} us  p50 {med['p50']} p99 {med['p99']} errors {sum(r['errors'] for r in rows)}", flush=True)
    return med["ops_s"], cpu_med

def memcache():
    results = {}
    for pipe in (1, 32):
        for ratio, kind in (("1:0", "set"), ("0:1", "get")):
            rows = {"memcached": [], "basalt": []}
            for rep in range(REPS):
                for name in ("memcached", "basalt"):
                    shutil.rmtree("/tmp/basalt-bench-mc-data", ignore_errors=True)
                    if name == "memcached":
                        p = start(["memcached", "-p", "11411", "-t", "2", "-m", "2048", "-U", "0", "-u", "root", "-l", "127.0.0.1"]); port = "11411"
                    else:
                        p = start([f"{BIN}/basalt-server", "--port", "16411", "--memcached-port", "11412", "--dir", "/tmp/basalt-bench-mc-data",
                                   "--fsync", "everysec", "--threads", "2"]); port = "11412"
                    if kind == "get":  # fill the key range first
                        subprocess.run([f"{BIN}/basalt-bench", "-P", "memcache_text", "-s", "127.0.0.1", "-p", port, "-t", "2", "-c", "25",
                                        "-d", "128", "--ratio", "1:0", "--key-pattern", "P:P", "--key-maximum", "100000", "-n", "allkeys",
                                        "--pipeline", "32", "--hide-histogram"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                    rows[name].append(bench(p.pid, ["-P", "memcache_text", "-p", port, "--ratio", ratio, "--pipeline", str(pipe)],
                                            f"mc-{name}-{kind}-p{pipe}-{rep}"))
                    stop(p)
            for name in ("memcached", "basalt"):
                results[(name, kind, pipe)] = report(f"{name:9s} {kind} pipeline {pipe} (load {loadavg()})", rows[name])
            a, b = results[("memcached", kind, pipe)], results[("basalt", kind, pipe)]
            print(f"  -> basalt/memcached ops/s {b[0] / a[0]:.2f}x, CPU/op {b[1] / a[1]:.2f}x", flush=True)

def ab(title, a_name, a_cmd, a_env, a_args, b_name, b_cmd, b_env, b_args, data_dir):
    for pipe in (1, 16):
        rows = {a_name: [], b_name: []}
        for rep in range(REPS):
            for name, cmd, env, args in ((a_name, a_cmd, a_env, a_args), (b_name, b_cmd, b_env, b_args)):
                shutil.rmtree(data_dir, ignore_errors=True)
                p = start(cmd, env=env)
                rows[name].append(bench(p.pid, args + ["--ratio", "1:1", "--pipeline", str(pipe)], f"{title}-{name}-p{pipe}-{rep}"))
                stop(p)
        ra = report(f"{title}: {a_name} pipeline {pipe} (load {loadavg()})", rows[a_name])
        rb = report(f"{title}: {b_name} pipeline {pipe}", rows[b_name])
        print(f"  -> {b_name} overhead: ops/s {100 * (1 - rb[0] / ra[0]):+.1f}%, server CPU/op {100 * (rb[1] / ra[1] - 1):+.1f}%", flush=True)

def tls():
    d = "/tmp/basalt-bench-tls-data"
    cmd = [f"{BIN}/basalt-server", "--port", "16411", "--tls-port", "16412", "--tls-cert-file", PKI + "/server.crt",
           "--tls-key-file", PKI + "/server.key", "--dir", d, "--fsync", "everysec", "--threads", "2"]
    ab("tls", "plaintext", cmd, None, ["-p", "16411"], "tls", cmd, None, ["-p", "16412", "--tls", "--cacert", PKI + "/ca.crt"], d)

def enc():
    d = "/tmp/basalt-bench-enc-data"
    key = PKI + "/at-rest.key"
    if not os.path.exists(key):
        os.makedirs(PKI, exist_ok=True)
        with open(key, "wb") as f:
            f.write(os.urandom(32))
    cmd = [f"{BIN}/basalt-server", "--port", "16421", "--dir", d, "--fsync", "everysec", "--threads", "2"]
    ab("at-rest", "plaintext log", cmd, None, ["-p", "16421"], "AES-256-GCM log", cmd + ["--encryption-key-file", key], None, ["-p", "16421"], d)

for what in sys.argv[1:]:
    {"memcache": memcache, "tls": tls, "enc": enc}[what]()
