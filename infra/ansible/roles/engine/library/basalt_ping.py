#!/usr/bin/python3
# Waits until basalt-server answers PING, authenticating first when a password is given.
# Reads state only, so it never reports a change: a second deploy stays "ok".
from __future__ import annotations

DOCUMENTATION = r"""
module: basalt_ping
short_description: Wait until basalt-server answers PING as a user
options:
  host: {type: str, default: 127.0.0.1, description: Address of the server.}
  port: {type: int, default: 6379, description: Port of the server.}
  tls_ca_file: {type: str, default: "", description: CA certificate to verify the server with; set, the connection uses TLS.}
  user: {type: str, default: default, description: User to AUTH as.}
  passwords: {type: list, elements: str, default: [], no_log: true, description: Passwords tried in turn (the first the server accepts); none skips AUTH.}
  timeout: {type: int, default: 30, description: Seconds to keep trying.}
  refused_ok: {type: bool, default: false, description: When true, a refused AUTH returns authenticated=false instead of failing.}
"""

import time

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.basalt_resp import encode, read_reply, session


def main() -> None:
    module = AnsibleModule(
        argument_spec=dict(
            host=dict(type="str", default="127.0.0.1"),
            port=dict(type="int", default=6379),
            tls_ca_file=dict(type="str", default=""),
            user=dict(type="str", default="default"),
            passwords=dict(type="list", elements="str", default=[], no_log=True),
            timeout=dict(type="int", default=30),
            refused_ok=dict(type="bool", default=False),
        ),
        supports_check_mode=True,
    )
    p = module.params
    started = time.monotonic()
    last_error = "no attempt made"
    while time.monotonic() - started < p["timeout"]:
        try:
            with session(p["host"], p["port"], p["user"], p["passwords"], ca_file=p["tls_ca_file"]) as sock:
                sock.sendall(encode("PING"))
                reply = read_reply(sock)
            if reply == "+PONG":
                module.exit_json(changed=False, authenticated=True, reply=reply, elapsed=round(time.monotonic() - started, 3))
            last_error = f"PING answered {reply!r}"
        except PermissionError as err:
            if p["refused_ok"]:
                module.exit_json(changed=False, authenticated=False, msg=str(err))
            module.fail_json(msg=str(err))
        except OSError as err:
            last_error = f"{type(err).__name__}: {err}"
        time.sleep(0.2)
    module.fail_json(msg=f"{p['host']}:{p['port']} did not answer PING within {p['timeout']} s ({last_error})")


if __name__ == "__main__":
    main()
