#!/usr/bin/python3
# The whole engine role in one module run per node: system user and directories, binary,
# config, users, TLS material, the unit (or the process VM's supervisor), then the restart or
# the live reloads that the changes call for, and the health check. One run instead of a task
# per file: each task costs Ansible a fork on the control host and a Python start on the node,
# and a deploy of ~15 tasks spent most of its CPU on that, not on the work (issue 42).
#
# Files are written only when their content, mode or owner differ (a second run changes
# nothing); a changed file says what it calls for, as the handlers did: `restart` (binary,
# settings that need one, TLS material, the backup key, unit or supervisor), `users` (ACL LOAD,
# or a restart when the control plane's user cannot log in), `allowlist` (CONFIG SET
# allowlist); archiving is compared with the running engine's and set live (CONFIG SET). The
# binary comes from the control host through the action plugin of the same name, only when
# the node's differs (binary_wanted). Customer data (users, passwords, TLS keys) arrives as
# module arguments marked no_log, never in a command line or a template.
from __future__ import annotations

DOCUMENTATION = r"""
module: basalt_engine
short_description: Install, configure and (re)start basalt-server, then check it answers PING
options:
  scope: {type: str, choices: [full, live], default: full, description: "full: everything; live: config, users and allowlist, applied without a restart."}
  supervisor: {type: str, choices: [systemd, process], default: systemd, description: systemd on a VM; process in a process VM (no user, no chown).}
  binary_path: {type: str, required: true, description: Where the binary is installed.}
  binary_sha256: {type: str, default: "", description: SHA-256 of the binary the control host has (set by the action plugin).}
  binary_tmp: {type: str, default: "", description: A copy of that binary on the node, installed when given (set by the action plugin).}
  user: {type: str, default: basalt, description: System user the engine runs as (systemd).}
  group: {type: str, default: basalt, description: Its group.}
  config_dir: {type: str, required: true, description: Directory of the config file, the TLS material and the replication password.}
  data_dir: {type: str, required: true, description: The engine's data directory.}
  process_root: {type: str, default: "", description: The process VM's directory (bin, etc, data, run).}
  config_file: {type: str, required: true, description: Path of basalt.toml.}
  config: {type: str, required: true, description: Its content.}
  restart_settings: {type: str, default: "", description: "The settings that need a restart, recorded in the process VM (a systemd unit carries them as comments)."}
  unit: {type: str, default: "", description: The systemd unit's content.}
  service_name: {type: str, default: basalt-server, description: The systemd unit's name.}
  supervise: {type: str, default: "", description: The process VM's supervisor script.}
  replication_password: {type: str, default: "", no_log: true, description: "The password a replica logs in to its primary with; empty: none."}
  replication_password_file: {type: str, default: "", description: Its file.}
  users_supported: {type: bool, default: false, description: The engine reads a users file.}
  users_content: {type: str, default: "", no_log: true, description: The users file as the worker rendered it (hashes only).}
  users_file: {type: str, default: "", description: The engine's users file (the wanted one is kept beside it as .desired).}
  allowlist_supported: {type: bool, default: false, description: The engine takes CONFIG SET allowlist.}
  allowlist: {type: str, default: "", description: The allowlist as CONFIG SET takes it.}
  tls_make_script: {type: str, default: "", description: Script that makes the node's own CA and certificate once and prints the CA certificate.}
  tls_install_script: {type: str, default: "", description: Script that installs the certificate of the instance's CA from stdin.}
  tls_material: {type: str, default: "", no_log: true, description: CA certificate, node certificate and key for tls_install_script.}
  restart_requested: {type: bool, default: false, description: Restart even if nothing changed.}
  health_host: {type: str, default: 127.0.0.1, description: Address of the health check and the live commands.}
  health_port: {type: int, default: 6379, description: Their port.}
  tls_ca_file: {type: str, default: "", description: CA to verify the engine with; set, they use TLS.}
  control_user: {type: str, default: default, description: User they log in as.}
  control_passwords: {type: list, elements: str, default: [], no_log: true, description: Its passwords, tried in turn.}
  health_timeout: {type: int, default: 30, description: Seconds to wait for the engine.}
  archive: {type: bool, default: false, description: "Archiving on: compaction keeps segments until marked archived (set live with CONFIG SET)."}
  archive_seal_interval_ms: {type: int, default: 1000, description: "While archiving: what is appended is durable, and readable by BACKUP READ, within this many ms (live)."}
  backup_key: {type: str, default: "", no_log: true, description: "The backup data key, base64 of 32 bytes; empty: none (BACKUP READ sends the log unsealed)."}
  backup_key_file: {type: str, default: "", description: Its file (the 32 raw bytes); a change restarts the engine.}
"""

import base64
import binascii
import grp
import hashlib
import os
import pwd
import shutil
import stat
import subprocess
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.basalt_control import Control


class Engine:
    def __init__(self, module: AnsibleModule):
        self.module = module
        self.p = module.params
        self.systemd = self.p["supervisor"] == "systemd"
        # What changed, in words (the task's msg), and what the changes call for.
        self.changes: list[str] = []
        self.wants: set[str] = set()
        self.fresh = False  # the engine was started by this run and read everything already
        p = self.p
        self.control = Control(p["health_host"], p["health_port"], p["control_user"], p["control_passwords"], p["tls_ca_file"], p["health_timeout"])

    # ---- files -------------------------------------------------------------------------

    def ids(self, owner: str | None, group: str | None) -> tuple[int, int]:
        if not self.systemd:
            return -1, -1  # a process VM runs as the worker's user: no chown
        return (pwd.getpwnam(owner).pw_uid if owner else -1, grp.getgrnam(group).gr_gid if group else -1)

    def put(self, path: str, data: bytes, mode: int, owner: str | None = None, group: str | None = None, wants: str = "", force: bool = False) -> bool:
        """Writes `data` to `path` (a temporary file renamed over it) when it differs, or always
        with `force`; puts mode and owner right. True when anything changed."""
        uid, gid = self.ids(owner, group)
        try:
            st = os.stat(path)
            with open(path, "rb") as f:
                same = f.read() == data
        except FileNotFoundError:
            st, same = None, False
        changed = False
        if not same or force:
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=f".{os.path.basename(path)}.")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fchmod(f.fileno(), mode)
                    if uid != -1 or gid != -1:
                        os.fchown(f.fileno(), uid, gid)
                    os.fsync(f.fileno())
                os.rename(tmp, path)
            except BaseException:
                if os.path.exists(tmp):
                    os.unlink(tmp)
                raise
            changed = True
        else:
            if stat.S_IMODE(st.st_mode) != mode:
                os.chmod(path, mode)
                changed = True
            if (uid != -1 and st.st_uid != uid) or (gid != -1 and st.st_gid != gid):
                os.chown(path, uid, gid)
                changed = True
        if changed:
            self.changes.append(f"wrote {path}")
            if wants:
                self.wants.add(wants)
        return changed

    def directory(self, path: str, mode: int, owner: str | None = None, group: str | None = None) -> None:
        if not os.path.isdir(path):
            os.makedirs(path, mode=mode)
            self.changes.append(f"made {path}")
        uid, gid = self.ids(owner, group)
        st = os.stat(path)
        if stat.S_IMODE(st.st_mode) != mode:
            os.chmod(path, mode)
            self.changes.append(f"set {path} to {mode:o}")
        if (uid != -1 and st.st_uid != uid) or (gid != -1 and st.st_gid != gid):
            os.chown(path, uid, gid)
            self.changes.append(f"set {path} to {owner}:{group}")

    def run(self, args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
        done = subprocess.run(args, input=stdin, capture_output=True, text=True)
        if done.returncode != 0:
            self.module.fail_json(msg=f"{' '.join(args[:3])} exited with {done.returncode}: {done.stderr.strip()[-500:]}", changes=self.changes)
        return done

    # ---- steps ---------------------------------------------------------------------------

    def binary_current(self) -> bool:
        try:
            digest = hashlib.sha256()
            with open(self.p["binary_path"], "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    digest.update(chunk)
        except FileNotFoundError:
            return False
        return digest.hexdigest() == self.p["binary_sha256"]

    def prepare_host(self) -> None:
        p = self.p
        if self.systemd:
            try:
                pwd.getpwnam(p["user"])
            except KeyError:
                self.run(["useradd", "--system", "--user-group", "--shell", "/usr/sbin/nologin", "--home-dir", p["data_dir"], "--no-create-home", p["user"]])
                self.changes.append(f"created user {p['user']}")
            self.directory(p["config_dir"], 0o750, "root", p["group"])
            self.directory(p["data_dir"], 0o750, p["user"], p["group"])
        else:
            for sub in ("bin", "etc", "data", "run"):
                self.directory(os.path.join(p["process_root"], sub), 0o750)

    def install_binary(self) -> None:
        path = self.p["binary_path"]
        tmp = f"{path}.basalt-new"
        shutil.copyfile(self.p["binary_tmp"], tmp)
        os.chmod(tmp, 0o755)
        if self.systemd:
            os.chown(tmp, 0, 0)
        os.rename(tmp, path)
        self.changes.append(f"installed {path}")
        self.wants.add("restart")

    def secret_file_mode(self) -> tuple[int, str | None, str | None]:
        """Config and replication password: root:group 0640 on a VM, 0600 in a process VM."""
        return (0o640, "root", self.p["group"]) if self.systemd else (0o600, None, None)

    def config(self) -> None:
        mode, owner, group = self.secret_file_mode()
        self.put(self.p["config_file"], self.p["config"].encode(), mode, owner, group, wants="allowlist")

    def replication_password(self) -> None:
        if self.p["replication_password"] and self.p["replication_password_file"]:
            mode, owner, group = self.secret_file_mode()
            # Read when a replica connects: a change needs no restart.
            self.put(self.p["replication_password_file"], self.p["replication_password"].encode(), mode, owner, group)

    def backup_key(self) -> None:
        """The instance's backup data key (BACKUP READ seals what it sends with it), from the
        base64 the worker gives to the 32 raw bytes the engine reads, which it reads only at
        start: a new key restarts it. No key: no file left behind."""
        p = self.p
        path = p["backup_key_file"]
        if not path:
            return
        if p["backup_key"]:
            try:
                key = base64.b64decode(p["backup_key"].strip(), validate=True)
            except (binascii.Error, ValueError):
                key = b""
            if len(key) != 32:
                self.module.fail_json(msg="engine_backup_key is not the base64 of 32 bytes (an AES-256 key)", changes=self.changes)
            self.put(path, key, 0o600, p["user"], p["group"], wants="restart")
        elif os.path.exists(path):
            os.unlink(path)
            self.changes.append(f"removed {path}")
            self.wants.add("restart")

    def users(self) -> None:
        """The engine rewrites its users file in its own format on every ACL change, so the
        wanted users are kept beside it (.desired) and installed only when they changed, or when
        the engine no longer lets the control plane's user in (a run cut short between installing
        and reloading)."""
        p = self.p
        if not p["users_supported"]:
            return
        owner, group = (p["user"], p["group"])
        data = p["users_content"].encode()
        changed = self.put(f"{p['users_file']}.desired", data, 0o600, owner, group)
        locked_out = p["scope"] == "live" and not self.control_login_works()
        if changed or locked_out:
            self.put(p["users_file"], data, 0o600, owner, group, wants="users", force=True)

    def tls(self) -> None:
        p = self.p
        if p["tls_make_script"]:
            done = self.run(["/bin/bash", "-c", p["tls_make_script"]])
            self.ca_certificate = done.stdout
            if "made a new CA" in done.stderr:
                self.changes.append("made the instance's CA and certificate")
                self.wants.add("restart")
        elif p["tls_install_script"]:
            done = self.run(["/bin/bash", "-c", p["tls_install_script"]], stdin=p["tls_material"])
            if "installed a certificate" in done.stderr:
                self.changes.append("installed a certificate from the instance's CA")
                self.wants.add("restart")

    def supervision(self) -> None:
        p = self.p
        if self.systemd:
            unit_changed = self.put(f"/etc/systemd/system/{p['service_name']}.service", p["unit"].encode(), 0o644, "root", "root", wants="restart")
            if unit_changed:
                self.wants.add("daemon-reload")
                return
            # Unchanged: keep it enabled and running.
            name = p["service_name"]
            if subprocess.run(["systemctl", "is-enabled", "--quiet", name]).returncode != 0:
                self.run(["systemctl", "enable", "--quiet", name])
                self.changes.append(f"enabled {name}")
            if subprocess.run(["systemctl", "is-active", "--quiet", name]).returncode != 0:
                self.run(["systemctl", "start", name])
                self.changes.append(f"started {name}")
                self.fresh = True
        else:
            root = p["process_root"]
            self.put(os.path.join(p["config_dir"], "restart-settings"), p["restart_settings"].encode(), 0o600, wants="restart")
            self.put(os.path.join(root, "bin", "supervise.sh"), p["supervise"].encode(), 0o755, wants="restart")
            started = self.run([os.path.join(root, "bin", "supervise.sh"), "start"]).stdout.strip()
            if started == "started":
                self.changes.append("started the supervisor")
                self.fresh = True

    def restart(self) -> None:
        p = self.p
        if self.systemd:
            if "daemon-reload" in self.wants:
                self.run(["systemctl", "daemon-reload"])
            self.run(["systemctl", "enable", "--quiet", p["service_name"]])
            self.run(["systemctl", "restart", p["service_name"]])
        else:
            self.run([os.path.join(p["process_root"], "bin", "supervise.sh"), "restart-engine"])
        self.changes.append("restarted the engine")

    # ---- the engine's own answers --------------------------------------------------------

    def control_login_works(self) -> bool:
        return self.control.login_works()

    def reload_users(self) -> None:
        """ACL LOAD; an engine that cannot be told (the control plane's user refused: a users
        file it never read) reads the new file when restarted."""
        try:
            reply = self.control.command("ACL", "LOAD")
        except (PermissionError, TimeoutError, OSError) as err:
            reply = f"-{err}"
        if reply.startswith("-"):
            self.changes.append(f"ACL LOAD failed ({reply[1:][:200]}): restarting instead")
            self.restart()
        else:
            self.changes.append("reloaded the users")

    def apply_allowlist(self) -> None:
        try:
            reply = self.control.command("CONFIG", "SET", "allowlist", self.p["allowlist"])
        except (PermissionError, TimeoutError) as err:
            self.module.fail_json(msg=f"CONFIG SET allowlist: {err}", changes=self.changes)
        if reply.startswith("-"):
            self.module.fail_json(msg=f"CONFIG SET allowlist: {reply}", changes=self.changes)
        self.changes.append("set the allowlist")

    def apply_archive(self) -> None:
        """Archiving and its seal interval are set live (CONFIG SET) when the running engine's
        differ: the config file holds them for the next start, the engine reads it only then.
        An engine without archiving (no archive_enabled in INFO) is left alone while it is off."""
        p = self.p
        try:
            persistence = self.control.info("persistence")
        except (PermissionError, TimeoutError, OSError, RuntimeError) as err:
            self.module.fail_json(msg=f"INFO persistence: {err}", changes=self.changes)
        if "archive_enabled" not in persistence:
            if p["archive"]:
                self.module.fail_json(msg="archive is on but this basalt-server has no archiving (INFO persistence has no archive_enabled)", changes=self.changes)
            return
        interval = str(p["archive_seal_interval_ms"])
        # (INFO field, its wanted value, the setting and its CONFIG SET value); the interval
        # only matters while archiving, and without [backup] the engine keeps its default.
        wanted = [("archive_enabled", "1" if p["archive"] else "0", "archive", "yes" if p["archive"] else "no")]
        if p["archive"]:
            wanted.append(("archive_seal_interval_ms", interval, "archive-seal-interval", interval))
        for field, value, name, setting in wanted:
            if persistence.get(field) == value:
                continue
            try:
                reply = self.control.command("CONFIG", "SET", name, setting)
            except (PermissionError, TimeoutError, OSError) as err:
                reply = f"-{err}"
            if reply.startswith("-"):
                self.module.fail_json(msg=f"CONFIG SET {name} {setting}: {reply}", changes=self.changes)
            self.changes.append(f"set {name} {setting}")

    def wait_for_pong(self) -> None:
        try:
            why = self.control.pong_within(self.p["health_timeout"])
        except PermissionError as err:
            why = str(err)
        if why:
            self.module.fail_json(msg=why, changes=self.changes)

    # ---- the whole -----------------------------------------------------------------------

    def deploy(self) -> dict:
        p = self.p
        self.ca_certificate = ""
        full = p["scope"] == "full"
        if full:
            if p["binary_sha256"] and not p["binary_tmp"] and not self.binary_current():
                return {"changed": False, "binary_wanted": True}
            self.prepare_host()
            if p["binary_tmp"]:
                self.install_binary()
            self.replication_password()
            self.backup_key()
        self.config()
        self.users()
        if full:
            self.tls()
            self.supervision()
        # After a restart (or a start just now) the engine has read the new files: ACL LOAD has
        # nothing left to do; the allowlist is set all the same, since the engine prefers the
        # list saved by its last CONFIG SET over the config file.
        restarted = False
        if full and (p["restart_requested"] or ("restart" in self.wants and not self.fresh)):
            self.restart()
            restarted = True
        if "users" in self.wants and not (restarted or self.fresh):
            self.reload_users()
        if "allowlist" in self.wants and p["allowlist_supported"]:
            self.apply_allowlist()
        self.wait_for_pong()
        self.apply_archive()
        # A requested restart is the operation asked for: it counts as a change even when no file did.
        changed = bool(self.changes)
        return {"changed": changed, "msg": "; ".join(self.changes) if changed else "nothing to change", "stdout": self.ca_certificate}


def main() -> None:
    module = AnsibleModule(
        argument_spec=dict(
            scope=dict(type="str", choices=["full", "live"], default="full"),
            supervisor=dict(type="str", choices=["systemd", "process"], default="systemd"),
            binary_path=dict(type="str", required=True),
            binary_sha256=dict(type="str", default=""),
            binary_tmp=dict(type="str", default=""),
            user=dict(type="str", default="basalt"),
            group=dict(type="str", default="basalt"),
            config_dir=dict(type="str", required=True),
            data_dir=dict(type="str", required=True),
            process_root=dict(type="str", default=""),
            config_file=dict(type="str", required=True),
            config=dict(type="str", required=True),
            restart_settings=dict(type="str", default=""),
            unit=dict(type="str", default=""),
            service_name=dict(type="str", default="basalt-server"),
            supervise=dict(type="str", default=""),
            replication_password=dict(type="str", default="", no_log=True),
            replication_password_file=dict(type="str", default=""),
            users_supported=dict(type="bool", default=False),
            users_content=dict(type="str", default="", no_log=True),
            users_file=dict(type="str", default=""),
            allowlist_supported=dict(type="bool", default=False),
            allowlist=dict(type="str", default=""),
            tls_make_script=dict(type="str", default=""),
            tls_install_script=dict(type="str", default=""),
            tls_material=dict(type="str", default="", no_log=True),
            restart_requested=dict(type="bool", default=False),
            health_host=dict(type="str", default="127.0.0.1"),
            health_port=dict(type="int", default=6379),
            tls_ca_file=dict(type="str", default=""),
            control_user=dict(type="str", default="default"),
            control_passwords=dict(type="list", elements="str", default=[], no_log=True),
            health_timeout=dict(type="int", default=30),
            archive=dict(type="bool", default=False),
            archive_seal_interval_ms=dict(type="int", default=1000),
            backup_key=dict(type="str", default="", no_log=True),
            backup_key_file=dict(type="str", default=""),
        ),
    )
    module.exit_json(**Engine(module).deploy())


if __name__ == "__main__":
    main()
