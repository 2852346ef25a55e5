# The control host's half of the basalt_engine module: it hands the module the SHA-256 of the
# basalt-server binary the control host has, and sends the binary to the node only when the
# module answers that the node's differs (binary_wanted): a redeploy with the same binary
# costs one module run and no transfer, the first deploy two runs and one transfer.
from __future__ import annotations

import hashlib

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


class ActionModule(ActionBase):
    # No remote temporary directory up front: only a binary transfer needs one.
    TRANSFERS_FILES = False

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        del tmp
        args = dict(self._task.args)
        src = args.pop("binary_src", "")
        if src:
            try:
                args["binary_sha256"] = sha256_of(src)
            except OSError as err:
                raise AnsibleActionFail(f"the basalt-server binary {src} cannot be read: {err}") from err
        answer = self._execute_module(module_name="basalt_engine", module_args=args, task_vars=task_vars)
        if answer.get("binary_wanted"):
            tmpdir = self._make_tmp_path()
            try:
                remote = self._connection._shell.join_path(tmpdir, "basalt-server")
                self._transfer_file(src, remote)
                self._fixup_perms2((tmpdir, remote))
                answer = self._execute_module(module_name="basalt_engine", module_args={**args, "binary_tmp": remote}, task_vars=task_vars)
            finally:
                self._remove_tmp_path(tmpdir)
        result.update(answer)
        return result
