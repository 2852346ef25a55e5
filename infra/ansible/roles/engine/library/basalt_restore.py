#!/usr/bin/python3
# A restore to a point in time (issue 44) on one node: the backup's log segments and its
# recovery.target replace the engine's log, the engine replays them up to the target and cuts
# the rest, and its INFO persistence says where it stopped. The files come from the control
# host through the action plugin of the same name, only when this restore id was not applied
# here yet (files_wanted); `restore.done` in the data dir records the id and the engine's
# answer, so a second run keeps the restored data and changes nothing.
#
# Order, so that no run cut short passes for a restore: files staged and checked (the engine
# still running), engine stopped, the old log removed, target then segments renamed in, engine
# started, PING, INFO persistence checked, and only then the marker. A failure after the stop
# leaves the engine stopped and the task failed, never an empty engine answering as if
# restored; a second run with the same id does it all again.
from __future__ import annotations

DOCUMENTATION = r"""
module: basalt_restore
short_description: Replace basalt-server's log with a backup's segments and recover it to its recovery.target
options:
  restore_id: {type: str, required: true, description: The restore's id; a node restores each id once.}
  manifest: {type: dict, required: true, description: "File name -> SHA-256 of the restore (set by the action plugin)."}
  staged: {type: str, default: "", description: A directory on the node holding those files (set by the action plugin).}
  supervisor: {type: str, choices: [systemd, process], default: systemd, description: systemd on a VM; process in a process VM.}
  service_name: {type: str, default: basalt-server, description: The systemd unit's name.}
  process_root: {type: str, default: "", description: The process VM's directory.}
  data_dir: {type: str, required: true, description: The engine's data directory.}
  user: {type: str, default: basalt, description: System user the engine runs as (systemd).}
  group: {type: str, default: basalt, description: Its group.}
  health_host: {type: str, default: 127.0.0.1, description: Address of the health check.}
  health_port: {type: int, default: 6379, description: Its port.}
  tls_ca_file: {type: str, default: "", description: CA to verify the engine with; set, the check uses TLS.}
  control_user: {type: str, default: default, description: User the check logs in as.}
  control_passwords: {type: list, elements: str, default: [], no_log: true, description: Its passwords, tried in turn.}
  timeout: {type: int, default: 600, description: Seconds the engine may take to replay the log and answer PING.}
"""

import grp
import json
import os
import pwd
import re
import shutil
import subprocess
import time

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.basalt_control import Control

MARKER = "restore.done"
STAGING = ".restore-staging"
# The log and what belongs to it: segments, a compaction's leftovers, the spare, the archive
# mark, a target, the at-rest marker. The role's files (users.acl, its .desired) and the
# engine's saved allowlist stay: they are the instance's, not the log's.
LOG_FILE = re.compile(r"^(wal-[0-9]+\.(log|removing)|wal\.spare|wal\.archived(\.tmp)?|recovery\.target|encryption\.check(\.tmp)?)$")
# INFO persistence fields of a recovery, all returned; the numbers as numbers.
RECOVERY_FIELDS = ("recovery_target", "recovery_target_time_ms", "recovery_target_lsn", "recovery_stopped_lsn", "recovery_stopped_time_ms", "recovery_cut")


def parse_target(text: str) -> dict[str, int]:
    """recovery.target's names and values, checked as the engine checks them at open (a file
    it refuses would keep it from starting: better said before it is stopped)."""
    target: dict[str, int] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, value = (part.strip() for part in line.partition("="))
        if name not in ("time-ms", "lsn") or name in target or not value.isdigit():
            raise ValueError(f"line {line!r} (expected time-ms=<unix ms> or lsn=<n>, each once)")
        target[name] = int(value)
    if not target:
        raise ValueError("it names neither time-ms nor lsn")
    return target


class Restore:
    def __init__(self, module: AnsibleModule):
        self.module = module
        self.p = p = module.params
        self.systemd = p["supervisor"] == "systemd"
        self.changes: list[str] = []
        # Short waits for each connection: come_up() watches the engine between them.
        self.control = Control(p["health_host"], p["health_port"], p["control_user"], p["control_passwords"], p["tls_ca_file"], 2)

    def fail(self, why: str, stop: bool = False) -> None:
        """Fails the task; with `stop` (the engine is on the restored log) the engine is stopped
        and that log removed: a restore that did not work never leaves an engine serving it, and
        a log the engine cannot open would keep the next run's deploy from bringing it up."""
        tail = self.log_tail()
        if stop:
            done = self.supervise("stop")
            if done.returncode == 0:
                self.changes.append("stopped the engine")
                self.remove_log("removed the restored log")
            else:
                self.changes.append(f"could not stop the engine: {done.stderr.strip()[-200:]}")
        self.module.fail_json(msg=why, changed=bool(self.changes), changes=self.changes, log_tail=tail)

    # ---- the node ----------------------------------------------------------------------

    def supervise(self, action: str) -> subprocess.CompletedProcess:
        if self.systemd:
            args = ["systemctl", action, self.p["service_name"]]
        else:
            args = [os.path.join(self.p["process_root"], "bin", "supervise.sh"), action]
        return subprocess.run(args, capture_output=True, text=True)

    def supervisor_log(self) -> str:
        return os.path.join(self.p["process_root"], "run", "supervisor.log")

    def log_tail(self) -> str:
        """The engine's last words (why it did not come up)."""
        if self.systemd:
            done = subprocess.run(["journalctl", "-u", self.p["service_name"], "-n", "20", "--no-pager", "-o", "cat"], capture_output=True, text=True)
            return done.stdout[-3000:]
        try:
            with open(self.supervisor_log(), "rb") as f:
                f.seek(max(0, os.path.getsize(self.supervisor_log()) - 3000))
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def last_words(self) -> str:
        """The engine's last line of its own (the events keep msg, not log_tail)."""
        lines = [line for line in self.log_tail().splitlines() if line.strip() and "starting it again" not in line]
        return lines[-1][-300:] if lines else "(nothing)"

    def exits(self, since: int = 0) -> int:
        """A count that grows each time the engine exits under its supervisor: systemd's
        restarts of the unit, or the supervisor's lines saying so in the process VM's log
        (past offset `since`; the engine writes its own lines there too)."""
        if self.systemd:
            done = subprocess.run(["systemctl", "show", "-p", "NRestarts", "--value", self.p["service_name"]], capture_output=True, text=True)
            return int(done.stdout.strip()) if done.stdout.strip().isdigit() else 0
        try:
            with open(self.supervisor_log(), "rb") as f:
                f.seek(since)
                return f.read().count(b"basalt-server exited")
        except OSError:
            return 0

    def log_size(self) -> int:
        try:
            return 0 if self.systemd else os.path.getsize(self.supervisor_log())
        except OSError:
            return 0

    def come_up(self, since: int) -> str:
        """Waits for PING on the restored log (replay takes a while for a long one): "" once it
        answers, else why not, at once when the engine exits (a missing segment, a bad record).
        `since`: the process VM's log size before the start."""
        exits = self.exits() if self.systemd else 0
        deadline = time.monotonic() + self.p["timeout"]
        why = "no attempt made"
        while time.monotonic() < deadline:
            try:
                why = self.control.pong_within(2)
            except PermissionError as err:
                return str(err)
            if not why:
                return ""
            if self.exits(since) != exits:
                return f"the engine exited while opening the restored log ({why})"
        return why

    def own(self, path: str, mode: int) -> None:
        os.chmod(path, mode)
        if self.systemd:
            os.chown(path, pwd.getpwnam(self.p["user"]).pw_uid, grp.getgrnam(self.p["group"]).gr_gid)

    def fsync_dir(self, path: str) -> None:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def marker(self) -> dict:
        try:
            with open(os.path.join(self.p["data_dir"], MARKER), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    # ---- steps ---------------------------------------------------------------------------

    def stage(self) -> str:
        """The files, moved (or copied) from where the plugin put them into a directory in the
        data dir, so that going in is a rename; each checked against its SHA-256."""
        p = self.p
        staging = os.path.join(p["data_dir"], STAGING)
        shutil.rmtree(staging, ignore_errors=True)
        os.mkdir(staging, 0o700)
        self.own(staging, 0o700)
        for name, digest in p["manifest"].items():
            path = os.path.join(staging, name)
            shutil.move(os.path.join(p["staged"], name), path)
            with open(path, "rb") as f:
                os.fsync(f.fileno())
            if self.module.sha256(path) != digest:
                shutil.rmtree(staging, ignore_errors=True)
                self.fail(f"{name} arrived with another SHA-256 than the control host's: the copy was damaged")
            self.own(path, 0o600)
        self.changes.append(f"staged {len(p['manifest'])} files")
        return staging

    def remove_log(self, done: str) -> None:
        data_dir = self.p["data_dir"]
        removed = [name for name in os.listdir(data_dir) if LOG_FILE.match(name) or name == MARKER]
        for name in removed:
            os.unlink(os.path.join(data_dir, name))
        self.fsync_dir(data_dir)
        self.changes.append(f"{done} ({len(removed)} files)")

    def replace_log(self, staging: str) -> None:
        data_dir = self.p["data_dir"]
        self.remove_log("removed the engine's log")
        # The target first: a run cut short in between leaves segments that replay to it.
        names = sorted(self.p["manifest"], key=lambda name: name != "recovery.target")
        for name in names:
            os.rename(os.path.join(staging, name), os.path.join(data_dir, name))
        os.rmdir(staging)
        self.fsync_dir(data_dir)
        self.changes.append(f"put {len(names) - 1} restored segments and recovery.target in {data_dir}")

    def recovery(self, target: dict[str, int]) -> dict:
        """What the engine says it recovered to; fails (and stops it) unless it applied this
        target."""
        try:
            persistence = self.control.info("persistence")
        except (PermissionError, TimeoutError, OSError, RuntimeError) as err:
            self.fail(f"INFO persistence after the restore: {err}", stop=True)
        found = {}
        for field in RECOVERY_FIELDS:
            value = persistence.get(field, "")
            found[field] = int(value) if value.isdigit() else (value or None)
        if found["recovery_target"] != "applied":
            self.fail(f"the engine started without applying recovery.target (recovery_target:{found['recovery_target']})", stop=True)
        for name, field in (("lsn", "recovery_target_lsn"), ("time-ms", "recovery_target_time_ms")):
            if target.get(name) != found[field]:
                self.fail(f"the engine applied another target ({field}:{found[field]}, recovery.target has {name}={target.get(name)})", stop=True)
        # An LSN names a record the backup holds: a log that ends before it, with nothing cut,
        # lacks segments (a time past the last write is only a quiet log).
        if "lsn" in target and not found["recovery_cut"] and (found["recovery_stopped_lsn"] or 0) < target["lsn"]:
            self.fail(f"the restored log ends at LSN {found['recovery_stopped_lsn']}, before the target LSN {target['lsn']}: segments are missing", stop=True)
        return found

    def restore(self) -> dict:
        p = self.p
        done = self.marker()
        if done.get("id") == p["restore_id"]:
            return {"changed": False, "msg": f"restore {p['restore_id']} was applied already", "restore": done}
        if not p["staged"]:
            return {"changed": False, "files_wanted": True}
        try:
            with open(os.path.join(p["staged"], "recovery.target"), encoding="utf-8") as f:
                target = parse_target(f.read())
        except (OSError, ValueError) as err:
            self.fail(f"recovery.target of restore {p['restore_id']} is not one the engine takes: {err}")
        staging = self.stage()
        stopped = self.supervise("stop")
        if stopped.returncode != 0:
            self.fail(f"could not stop the engine: {stopped.stderr.strip()[-500:]}")
        self.changes.append("stopped the engine")
        self.replace_log(staging)
        since = self.log_size()
        started = self.supervise("start")
        if started.returncode != 0:
            self.fail(f"could not start the engine: {started.stderr.strip()[-500:]}", stop=True)
        self.changes.append("started the engine")
        why = self.come_up(since)
        if why:
            self.fail(f"the engine did not come up on the restored log: {why}; its log: {self.last_words()}", stop=True)
        result = {"id": p["restore_id"], **self.recovery(target)}
        path = os.path.join(p["data_dir"], MARKER)
        with open(f"{path}.tmp", "w", encoding="utf-8") as f:
            json.dump(result, f)
            f.flush()
            os.fsync(f.fileno())
        self.own(f"{path}.tmp", 0o600)
        os.rename(f"{path}.tmp", path)
        self.fsync_dir(p["data_dir"])
        self.changes.append(f"recovered to LSN {result['recovery_stopped_lsn']} (time {result['recovery_stopped_time_ms']} ms)")
        return {"changed": True, "msg": "; ".join(self.changes), "restore": result}


def main() -> None:
    module = AnsibleModule(
        argument_spec=dict(
            restore_id=dict(type="str", required=True),
            manifest=dict(type="dict", required=True),
            staged=dict(type="str", default=""),
            supervisor=dict(type="str", choices=["systemd", "process"], default="systemd"),
            service_name=dict(type="str", default="basalt-server"),
            process_root=dict(type="str", default=""),
            data_dir=dict(type="str", required=True),
            user=dict(type="str", default="basalt"),
            group=dict(type="str", default="basalt"),
            health_host=dict(type="str", default="127.0.0.1"),
            health_port=dict(type="int", default=6379),
            tls_ca_file=dict(type="str", default=""),
            control_user=dict(type="str", default="default"),
            control_passwords=dict(type="list", elements="str", default=[], no_log=True),
            timeout=dict(type="int", default=600),
        ),
    )
    module.exit_json(**Restore(module).restore())


if __name__ == "__main__":
    main()
