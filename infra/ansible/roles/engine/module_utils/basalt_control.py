# The running engine as the role's modules see it (basalt_engine, basalt_restore): commands as
# the control plane's own user, waiting for it to accept connections, PING within a deadline,
# INFO read as fields.
from __future__ import annotations

import time

from ansible.module_utils.basalt_resp import encode, read_reply, session


class Control:
    """Sessions with the engine at host:port as `user`, trying each of `passwords` (during a
    rotation the engine may know only one), over TLS checked against `ca_file` when set."""

    def __init__(self, host: str, port: int, user: str, passwords: list[str], ca_file: str = "", timeout: int = 30):
        self.host, self.port, self.user, self.passwords, self.ca_file, self.timeout = host, port, user, passwords, ca_file, timeout

    def connect(self):
        """A session, waiting up to `timeout` s for the engine to accept connections; raises
        PermissionError when it refuses the user, TimeoutError when it never accepts."""
        started = time.monotonic()
        while True:
            try:
                return session(self.host, self.port, self.user, self.passwords, ca_file=self.ca_file)
            except PermissionError:
                raise
            except OSError as err:
                if time.monotonic() - started > self.timeout:
                    raise TimeoutError(f"{self.host}:{self.port} refused connections for {self.timeout} s: {err}") from err
                time.sleep(0.2)

    def command(self, *words: str) -> str:
        with self.connect() as sock:
            sock.sendall(encode(*words))
            return read_reply(sock)

    def login_works(self) -> bool:
        try:
            return self.command("PING") == "+PONG"
        except (PermissionError, TimeoutError, OSError):
            return False

    def pong_within(self, seconds: int) -> str:
        """Waits up to `seconds` for +PONG: "" once it came, else why not. A refused login is
        an answer, not a reason to wait: PermissionError."""
        started = time.monotonic()
        last = "no attempt made"
        while time.monotonic() - started < seconds:
            try:
                reply = self.command("PING")
                if reply == "+PONG":
                    return ""
                last = f"PING answered {reply!r}"
            except PermissionError:
                raise
            except (TimeoutError, OSError) as err:
                last = f"{type(err).__name__}: {err}"
            time.sleep(0.2)
        return f"{self.host}:{self.port} did not answer PING within {seconds} s ({last})"

    def info(self, section: str) -> dict[str, str]:
        """`INFO <section>` as name -> value (raises RuntimeError on an error reply)."""
        reply = self.command("INFO", section)
        if reply.startswith("-"):
            raise RuntimeError(f"INFO {section}: {reply}")
        fields = {}
        for line in reply.splitlines():
            name, sep, value = line.partition(":")
            if sep and not line.startswith("#"):
                fields[name.strip()] = value.strip()
        return fields
