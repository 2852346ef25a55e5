#!/usr/bin/env bash
# The engine role's backups end to end on this host, no mocks: a real basalt-server in two
# process VMs (engine_supervisor: process, local connection, as the worker deploys region
# `local` without nspawn). Node A is deployed with archiving on and a backup key; keys are
# written, `BACKUP BASE` gives the LSN of a point, more keys follow; A's wal-*.log files and a
# recovery.target (lsn=<that point>) make a restore directory, and playbooks/restore.yml
# restores it into node B. Checked: B holds exactly the keys up to the point; the task's
# `restore` result (in the events file, as the worker reads it) names the LSN; a second run
# changes nothing on either node; a new seal interval is set live; a restore to a target past
# the log's end, and one with a gap in its segments, fail and leave B's engine stopped; the
# good restore then runs again. Every node is stopped at the end.
#
#   infra/ansible/tests/restore-check.sh            # 25-30 s here
#   RESTORE_CHECK_MIB=256 infra/ansible/tests/restore-check.sh   # also times a 256 MiB restore
#
# Needs the engine built (engine/target/release/basalt-server, or BASALT_ENGINE_BIN), redis-cli
# and the project's Ansible (.tools/ansible).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ansible_dir=$(dirname "$here")
repo=$(cd "$ansible_dir/../.." && pwd)
bin=${BASALT_ENGINE_BIN:-$repo/engine/target/release/basalt-server}
playbook=$repo/.tools/ansible/bin/ansible-playbook
mib=${RESTORE_CHECK_MIB:-0}
[ -x "$bin" ] || { echo "no engine binary at $bin (cd engine && cargo build --release -p basalt-server)" >&2; exit 1; }
[ -x "$playbook" ] || { echo "no Ansible at $playbook" >&2; exit 1; }
command -v redis-cli >/dev/null || { echo "redis-cli is needed" >&2; exit 1; }

work=$(mktemp -d /tmp/basalt-restore-check.XXXXXX)
stop_nodes() {
  for node in a b; do
    [ -x "$work/$node/bin/supervise.sh" ] && "$work/$node/bin/supervise.sh" stop >/dev/null 2>&1 || true
  done
}
trap 'stop_nodes; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; for node in a b; do tail -5 "$work/$node/run/supervisor.log" 2>/dev/null | sed "s/^/  $node: /" >&2; done; exit 1; }
started=$(date +%s.%N)

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port_a=$(free_port)
port_b=$(free_port)
secret() { python3 -c 'import secrets; print(secrets.token_hex(16))'; }
sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
control_password=$(secret)
backup_password=$(secret)
app_password=$(secret)
backup_key=$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')

# The users file as the worker renders it (hashes only), plus a service user for BACKUP (the
# control plane's backup work, which this role does not do) and a customer's user.
users="user app on resetpass #$(sha "$app_password") ~* &* +@all
user default off resetpass resetkeys resetchannels -@all
user basalt:control-plane on resetpass #$(sha "$control_password") resetkeys resetchannels -@all +auth +hello +ping +acl|load +config|get +config|set +info +slowlog|get +role +replicaof +wait
user basalt:backup on resetpass #$(sha "$backup_password") resetkeys resetchannels -@all +auth +ping +backup
"

# The vars file as the worker writes it: every string tagged !unsafe.
python3 - "$work/vars.yml" "$users" "$control_password" "$backup_key" "$bin" <<'EOF'
import json, sys
path, users, control, key, binary = sys.argv[1:]
q = lambda s: "!unsafe " + json.dumps(s)
with open(path, "w") as f:
    f.write("---\n")
    f.write(f"engine_binary_src: {q(binary)}\n")
    f.write("engine_users_supported: true\nengine_allowlist_supported: true\n")
    f.write(f"engine_users_file_content: {q(users)}\n")
    f.write(f"engine_control_user: {q('basalt:control-plane')}\nengine_control_passwords: [{q(control)}]\n")
    f.write("engine_memcached_port: 0\nengine_archive: true\nengine_archive_seal_interval_ms: 200\n")
    f.write(f"engine_backup_key: {q(key)}\n")
EOF
chmod 600 "$work/vars.yml"

inventory() { # node port
  mkdir -p "$work/$1"/{bin,etc,data,run}
  cat > "$work/$1.json" <<EOF
{"all": {"children": {"engine": {"hosts": {"node-$1": {
  "ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}",
  "engine_supervisor": "process", "engine_process_root": "$work/$1", "engine_data_dir": "$work/$1/data",
  "engine_bind": "127.0.0.1", "engine_admin_bind": "127.0.0.1", "engine_port": $2}}}}}}
EOF
}
inventory a "$port_a"
inventory b "$port_b"

# ansible-playbook NODE PLAYBOOK [extra args]: events in $work/NODE.events (one file per run).
run=0
play() {
  local node=$1 book=$2
  shift 2
  run=$((run + 1))
  events="$work/$node.$run.events"
  (cd "$ansible_dir" && BASALT_EVENTS_FILE=$events ANSIBLE_NOCOLOR=1 "$playbook" -i "$work/$node.json" -e "@$work/vars.yml" "$@" "playbooks/$book") >"$work/$node.$run.log" 2>&1
}
changed_of() { python3 -c 'import json, sys; print(sum(h.get("changed", 0) for l in open(sys.argv[1]) for e in [json.loads(l)] if e["event"] == "stats" for h in e["hosts"].values()))' "$1"; }
# The restore task's `restore` result, as the worker reads it from the events.
restore_of() { python3 -c 'import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e["event"] in ("runner_on_ok", "runner_on_failed") and e["task"].endswith("Restore the engine'"'"'s data from a backup"):
        print(json.dumps({"event": e["event"], "changed": e["changed"], "restore": e["result"].get("restore"), "msg": e["result"].get("msg")}))' "$1"; }
cli() { local port=$1; shift; redis-cli -h 127.0.0.1 -p "$port" --no-auth-warning "$@"; }
app() { cli "$1" --user app --pass "$app_password" "${@:2}"; }

echo "deploying node A (archive on, backup key) on port $port_a"
play a engine.yml || { cat "$work/a.$run.log"; fail "engine.yml on A"; }
[ "$(cli "$port_a" --user basalt:control-plane --pass "$control_password" CONFIG GET backup-encryption | tail -1)" = yes ] || fail "A has no backup key"
cli "$port_a" --user basalt:control-plane --pass "$control_password" INFO persistence | grep -q '^archive_enabled:1' || fail "A does not archive"
[ "$(stat -c %a "$work/a/etc/backup.key")" = 600 ] && [ "$(stat -c %s "$work/a/etc/backup.key")" = 32 ] || fail "backup.key is not 32 bytes, 0600"
grep -rqF "$backup_key" "$work/a" "$work/a.$run.log" "$work/a.$run.events" && fail "the backup key is in a file or the output in clear"
play a engine.yml
[ "$(changed_of "$work/a.$run.events")" = 0 ] || fail "a second engine.yml on A changed something: $(cat "$work/a.$run.log")"
play a engine.yml -e engine_archive_seal_interval_ms=500
grep -q 'set archive-seal-interval 500' "$work/a.$run.events" && ! grep -q 'restarted the engine' "$work/a.$run.events" || fail "a new seal interval was not set live: $(cat "$work/a.$run.log")"
cli "$port_a" --user basalt:control-plane --pass "$control_password" INFO persistence | grep -q '^archive_seal_interval_ms:500' || fail "A's seal interval is not 500"

for i in 1 2 3; do app "$port_a" SET "before:$i" "value $i" >/dev/null; done
base=$(cli "$port_a" --user basalt:backup --pass "$backup_password" BACKUP BASE)
point=$(printf '%s\n' "$base" | awk 'prev == "end-lsn" { print; exit } { prev = $0 }')
[ -n "$point" ] || fail "BACKUP BASE gave no end-lsn: $base"
for i in 1 2; do app "$port_a" SET "after:$i" "value $i" >/dev/null; done
cli "$port_a" --user basalt:backup --pass "$backup_password" BACKUP BASE >/dev/null
echo "point: LSN $point (3 keys before it, 2 after)"

restore=$work/restore
mkdir "$restore"
cp "$work"/a/data/wal-*.log "$restore/"
printf 'lsn=%s\n' "$point" > "$restore/recovery.target"

echo "restoring into node B on port $port_b"
play b restore.yml -e engine_restore_src="$restore" -e engine_restore_id=restore-1 || { cat "$work/b.$run.log"; fail "restore.yml on B"; }
result=$(restore_of "$work/b.$run.events")
echo "restore result: $result"
python3 -c 'import json, sys; r = json.loads(sys.argv[1]); t = r["restore"]
assert r["changed"] and t["id"] == "restore-1" and t["recovery_target"] == "applied", r
assert t["recovery_target_lsn"] == int(sys.argv[2]) and t["recovery_stopped_lsn"] == int(sys.argv[2]) and t["recovery_stopped_time_ms"] > 0, r' "$result" "$point" || fail "the restore result"
for i in 1 2 3; do [ "$(app "$port_b" GET "before:$i")" = "value $i" ] || fail "before:$i is not on B"; done
for i in 1 2; do [ "$(app "$port_b" EXISTS "after:$i")" = 0 ] || fail "after:$i, written past the point, is on B"; done
[ ! -e "$work/b/data/recovery.target" ] || fail "recovery.target is still in B's data dir"

play b restore.yml -e engine_restore_src="$restore" -e engine_restore_id=restore-1 || fail "restore.yml again"
[ "$(changed_of "$work/b.$run.events")" = 0 ] || fail "a second restore.yml changed something: $(cat "$work/b.$run.log")"
[ "$(app "$port_b" GET before:1)" = "value 1" ] || fail "a second restore.yml lost the data"

echo "a restore to a target past the log's end must fail and leave the engine stopped"
printf 'lsn=%s\n' "$((point + 1000000))" > "$restore/recovery.target"
if play b restore.yml -e engine_restore_src="$restore" -e engine_restore_id=restore-2; then fail "a restore short of its target passed"; fi
echo "  $(restore_of "$work/b.$run.events")"
cli "$port_b" PING >/dev/null 2>&1 && fail "B's engine is running after a failed restore"
printf 'lsn=%s\n' "$point" > "$restore/recovery.target"
echo "a gap in the segments: the engine exits at open, the task must fail at once"
gap=$work/gap
mkdir "$gap"
cp "$restore/recovery.target" "$gap/"
first=$(ls "$restore" | grep '^wal-' | head -1)
cp "$restore/$first" "$gap/$first"
cp "$restore/$first" "$gap/wal-0000000099.log"
t0=$(date +%s)
if play b restore.yml -e engine_restore_src="$gap" -e engine_restore_id=restore-3; then fail "a restore with a gap passed"; fi
echo "  $(restore_of "$work/b.$run.events") after $(( $(date +%s) - t0 )) s"
cli "$port_b" PING >/dev/null 2>&1 && fail "B's engine is running after a failed restore"
play b restore.yml -e engine_restore_src="$restore" -e engine_restore_id=restore-1 || fail "the good restore again"
[ "$(app "$port_b" GET before:3)" = "value 3" ] && [ "$(app "$port_b" EXISTS after:1)" = 0 ] || fail "the good restore again: data"

if [ "$mib" -gt 0 ]; then
  echo "writing $mib MiB into node A (4 KiB values) for a timed restore"
  python3 - "$mib" <<'EOF' | app "$port_a" --pipe >/dev/null
import sys
value = "x" * 4096
for i in range(int(sys.argv[1]) * 256):
    sys.stdout.write(f"*3\r\n$3\r\nSET\r\n${len(f'big:{i}')}\r\nbig:{i}\r\n$4096\r\n{value}\r\n")
EOF
  end=$(cli "$port_a" --user basalt:backup --pass "$backup_password" BACKUP BASE | awk 'prev == "end-lsn" { print; exit } { prev = $0 }')
  rm -f "$restore"/wal-*.log
  cp "$work"/a/data/wal-*.log "$restore/"
  printf 'lsn=%s\n' "$end" > "$restore/recovery.target"
  echo "  $(du -sm --apparent-size "$restore" | cut -f1) MiB in $(ls "$restore" | grep -c '^wal-') segments"
  t0=$(date +%s.%N)
  play b restore.yml -e engine_restore_src="$restore" -e engine_restore_id=restore-big || { cat "$work/b.$run.log"; fail "the big restore"; }
  t1=$(date +%s.%N)
  task=$(python3 -c 'import json, sys
times = [e["time"] for e in map(json.loads, open(sys.argv[1])) if e.get("task", "").endswith("Restore the engine'"'"'s data from a backup")]
print(f"{times[-1] - times[0]:.1f}")' "$work/b.$run.events")
  echo "  restore.yml: $(printf '%.1f' "$(echo "$t1 - $t0" | bc)") s, of which the restore task (hashes, copy, stop, replay, checks) $task s"
  echo "  $(restore_of "$work/b.$run.events")"
  [ "$(app "$port_b" DBSIZE)" = "$(app "$port_a" DBSIZE)" ] || fail "the big restore: DBSIZE differs"
fi

echo "ok: restore-check passed in $(printf '%.1f' "$(echo "$(date +%s.%N) - $started" | bc)") s"
