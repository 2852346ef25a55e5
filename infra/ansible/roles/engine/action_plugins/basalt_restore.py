# The control host's half of the basalt_restore module: it lists the restore directory
# (`wal-*.log` segments and `recovery.target`), hands the module their names and SHA-256, and
# sends the files only when the module answers that the node has not applied this restore id
# yet (files_wanted). Each file goes with the connection's put_file (SFTP/SCP over SSH, a copy
# on a local connection), which streams it: a 64 MiB segment is never held in memory.
from __future__ import annotations

import hashlib
import os
import re

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase
from ansible.utils.hashing import secure_hash

SEGMENT = re.compile(r"^wal-[0-9]{10}\.log$")
# What a restore may hold besides segments: the target, and the marker of a log encrypted at
# rest (its key must then be the engine's).
EXTRA = ("recovery.target", "encryption.check")


def manifest_of(src: str) -> dict[str, str]:
    """name -> SHA-256 of every file of the restore directory; anything else there is refused
    (a wrong directory must not become an instance's data)."""
    try:
        names = sorted(os.listdir(src))
    except OSError as err:
        raise AnsibleActionFail(f"the restore directory {src} cannot be read: {err}") from err
    strangers = [name for name in names if not (SEGMENT.match(name) or name in EXTRA)]
    if strangers:
        raise AnsibleActionFail(f"the restore directory {src} holds files a restore does not take: {', '.join(strangers[:5])}")
    if "recovery.target" not in names:
        raise AnsibleActionFail(f"the restore directory {src} has no recovery.target")
    if not any(SEGMENT.match(name) for name in names):
        raise AnsibleActionFail(f"the restore directory {src} has no wal-*.log segment")
    return {name: secure_hash(os.path.join(src, name), hashlib.sha256) for name in names}


class ActionModule(ActionBase):
    # No remote temporary directory up front: only a restore not applied yet needs one.
    TRANSFERS_FILES = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        args = dict(self._task.args)
        src = args.pop("restore_src", "")
        if not src or not args.get("restore_id"):
            raise AnsibleActionFail("a restore needs engine_restore_src (a directory on the control host) and engine_restore_id")
        manifest = manifest_of(src)
        args["manifest"] = manifest
        answer = self._execute_module(module_name="basalt_restore", module_args=args, task_vars=task_vars)
        if answer.get("files_wanted"):
            tmpdir = self._make_tmp_path()
            try:
                remotes = []
                for name in manifest:
                    remote = self._connection._shell.join_path(tmpdir, name)
                    self._transfer_file(os.path.join(src, name), remote)
                    remotes.append(remote)
                self._fixup_perms2([tmpdir, *remotes])
                answer = self._execute_module(module_name="basalt_restore", module_args={**args, "staged": tmpdir}, task_vars=task_vars)
            finally:
                self._remove_tmp_path(tmpdir)
        result.update(answer)
        return result
