#!/usr/bin/python3
# Sends admin commands (ACL LOAD, CONFIG SET ...) to basalt-server as a user, to apply a
# change live. Run from handlers only, so it reports a change whenever it ran.
from __future__ import annotations

DOCUMENTATION = r"""
module: basalt_command
short_description: Send admin commands to basalt-server as a user
options:
  host: {type: str, default: 127.0.0.1, description: Address of the server.}
  port: {type: int, default: 6379, description: Port of the server.}
  tls_ca_file: {type: str, default: "", description: CA certificate to verify the server with; set, the connection uses TLS.}
  user: {type: str, default: default, description: User to AUTH as.}
  passwords: {type: list, elements: str, default: [], no_log: true, description: Passwords tried in turn (the first the server accepts); none skips AUTH.}
  commands: {type: list, elements: list, required: true, description: Commands, each a list of words.}
  timeout: {type: int, default: 30, description: Seconds to wait for the server to accept connections.}
  fail_on_error: {type: bool, default: true, description: When false, a refused AUTH or an error reply returns applied=false instead of failing.}
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
            commands=dict(type="list", elements="list", required=True),
            timeout=dict(type="int", default=30),
            fail_on_error=dict(type="bool", default=True),
        ),
    )
    p = module.params

    def give_up(msg: str) -> None:
        if p["fail_on_error"]:
            module.fail_json(msg=msg)
        module.exit_json(changed=False, applied=False, msg=msg)

    started = time.monotonic()
    while True:
        try:
            sock = session(p["host"], p["port"], p["user"], p["passwords"], ca_file=p["tls_ca_file"])
            break
        except PermissionError as err:
            give_up(str(err))
        except OSError as err:
            if time.monotonic() - started > p["timeout"]:
                give_up(f"{p['host']}:{p['port']} refused connections for {p['timeout']} s: {err}")
            time.sleep(0.2)
    replies = []
    with sock:
        for command in p["commands"]:
            words = [str(word) for word in command]
            sock.sendall(encode(*words))
            reply = read_reply(sock)
            if reply.startswith("-"):
                give_up(f"{words[0]} {words[1] if len(words) > 1 else ''}: {reply}")
            replies.append(reply)
    module.exit_json(changed=True, applied=True, replies=replies)


if __name__ == "__main__":
    main()
