# Writes one JSON object per line to $BASALT_EVENTS_FILE for every task result and the
# final stats, so the worker reads what happened from events (as ansible-runner does)
# rather than from the screen output. Without the variable it does nothing.
from __future__ import annotations

import json
import os
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
name: basalt_events
type: notification
short_description: JSON-lines task events for the Basalt worker
description:
  - Appends task start, result and stats events to the file named by BASALT_EVENTS_FILE.
"""

# Keys of a task result that are worth keeping in an event; the rest may be large or secret.
# `restore`: what a restore recovered to (roles/engine/library/basalt_restore.py).
RESULT_KEYS = ("msg", "rc", "stderr", "stdout", "changed", "failed", "skipped", "unreachable", "restore")


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "notification"
    CALLBACK_NAME = "basalt_events"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super().__init__()
        self._path = os.environ.get("BASALT_EVENTS_FILE")

    def _emit(self, event: str, **fields) -> None:
        if not self._path:
            return
        fields.update(event=event, time=time.time())
        with open(self._path, "a", encoding="utf-8") as out:
            out.write(json.dumps(fields, default=str) + "\n")

    def _result(self, event: str, result) -> None:
        data = result._result
        hidden = data.get("_ansible_no_log") or result._task.no_log
        summary = {}
        if not hidden:
            summary = {key: data[key] for key in RESULT_KEYS if key in data}
            for key in ("stdout", "stderr", "msg"):
                if isinstance(summary.get(key), str):
                    summary[key] = summary[key][-2000:]
        self._emit(
            event,
            host=result._host.get_name(),
            task=result._task.get_name(),
            action=result._task.action,
            changed=bool(data.get("changed", False)),
            result=summary,
        )

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._emit("task_start", task=task.get_name(), action=task.action)

    def v2_playbook_on_handler_task_start(self, task):
        self._emit("task_start", task=task.get_name(), action=task.action, handler=True)

    def v2_runner_on_ok(self, result):
        self._result("runner_on_ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result("runner_on_failed", result)

    def v2_runner_on_unreachable(self, result):
        self._result("runner_on_unreachable", result)

    def v2_runner_on_skipped(self, result):
        self._result("runner_on_skipped", result)

    def v2_playbook_on_stats(self, stats):
        hosts = sorted(stats.processed.keys())
        self._emit("stats", hosts={host: stats.summarize(host) for host in hosts})
