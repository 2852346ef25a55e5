# RESP over a plain or TLS socket for the role's modules: enough to AUTH, PING and send a few
# admin commands to basalt-server on the VM, with no client library to install there.
from __future__ import annotations

import socket
import ssl


def encode(*parts: str) -> bytes:
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def read_reply(sock: socket.socket) -> str:
    """The first line of a reply: '+OK', '-ERR ...', ':1', or a bulk reply's content."""
    line = _read_line(sock)
    if line.startswith("$") and line != "$-1":
        size = int(line[1:])
        data = b""
        while len(data) < size + 2:
            chunk = sock.recv(size + 2 - len(data))
            if not chunk:
                raise ConnectionError("connection closed by the server")
            data += chunk
        return data[:-2].decode(errors="replace")
    return line


def _read_line(sock: socket.socket) -> str:
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("connection closed by the server")
        data += chunk
    return data[:-2].decode(errors="replace")


def session(host: str, port: int, user: str, passwords: list[str], timeout: float = 3.0, ca_file: str = "") -> socket.socket:
    """A connection, authenticated with the first of `passwords` the server accepts (none:
    no AUTH); raises PermissionError when it refuses them all. With a CA file the connection
    is TLS and the server's certificate must chain to that CA."""
    sock = socket.create_connection((host, port), timeout=timeout)
    if ca_file:
        context = ssl.create_default_context(cafile=ca_file)
        # The certificate names the node's addresses; the CA is the instance's own.
        context.check_hostname = False
        sock = context.wrap_socket(sock)
    reply = ""
    for password in passwords:
        sock.sendall(encode("AUTH", user, password))
        reply = read_reply(sock)
        if reply == "+OK":
            return sock
    if passwords:
        sock.close()
        raise PermissionError(f"AUTH as {user} was refused: {reply}")
    return sock
