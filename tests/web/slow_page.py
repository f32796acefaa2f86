"""A page slow to read its live channel, under gevent's event loop as the site serves it: run on its own
by tests/web/test_slow_pages.py (`python -m tests.web.slow_page`), for gevent patches the process it
runs in.

A channel's socket made as flask-sock makes it (frames.ChannelServer), its system buffer small, is
pushed PUSHES messages of different text while its page, wsproto's client, reads nothing; so the
server's writes wait part-way through a frame. Then the page reads a little at a time, and after each
read the heartbeat is tried on the channel: the socket has room again, and the rest of a frame may
still wait to be written. Prints whether the handshake came, whether the pushes came whole and in
order, the beats written and the empty messages heard.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import os  # noqa: E402
import socket  # noqa: E402
import time  # noqa: E402

import gevent  # noqa: E402
from wsproto import ConnectionType, WSConnection  # noqa: E402
from wsproto.events import AcceptConnection, Request, TextMessage  # noqa: E402

from zerogames.web import live  # noqa: E402
from zerogames.web.frames import ChannelServer, send  # noqa: E402

PUSHES, SIZE = 40, 20_000
# The socket buffers in bytes: the page's to read into, the server's to write from (no room for a push).
PAGE_BUFFER = SERVER_BUFFER = 4096


def opened() -> tuple[socket.socket, WSConnection, ChannelServer]:
    """The page's socket and WebSocket client, and the server's channel, past the handshake's request
    (the server's answer is the page's to read)."""
    listener = socket.create_server(("127.0.0.1", 0))
    page = socket.socket()
    page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, PAGE_BUFFER)
    page.connect(listener.getsockname())
    served, _ = listener.accept()
    served.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SERVER_BUFFER)
    client = WSConnection(ConnectionType.CLIENT)
    page.sendall(client.send(Request(host="127.0.0.1", target="/r/ABCD/live")))
    request = b""
    while not request.endswith(b"\r\n\r\n"):
        request += served.recv(4096)
    # Its headers as a WSGI server hands them on, with the socket as gunicorn does.
    environ: dict[str, object] = {"gunicorn.socket": served}
    for line in request.decode().split("\r\n")[1:]:
        if line:
            name, _, value = line.partition(": ")
            environ["HTTP_" + name.upper().replace("-", "_")] = value
    return page, client, ChannelServer(environ)


def main() -> None:
    page, client, ws = opened()
    pushes = [f"push {n} " + chr(ord("a") + n % 26) * SIZE for n in range(PUSHES)]

    def push_all() -> None:
        for text in pushes:
            send(ws, text)

    gevent.spawn(push_all)
    gevent.sleep(0.5)  # the page reads nothing meanwhile
    heard, part, accepted, beaten = [], "", False, 0
    page.settimeout(5)  # what was cut short or lost never comes
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            client.receive_data(page.recv(1024))
        except OSError:
            break  # nothing more came (a timeout is an OSError)
        if len(heard) - heard.count("") < PUSHES:
            beaten += live.beat(ws)
        else:
            page.settimeout(0.5)  # the beats written last, on their way
        for event in client.events():
            if isinstance(event, AcceptConnection):
                accepted = True
            elif isinstance(event, TextMessage):
                part += event.data
                if event.message_finished:
                    heard.append(part)
                    part = ""
        gevent.sleep(0.001)
    print(accepted, [text for text in heard if text] == pushes, beaten, heard.count(""), flush=True)
    os._exit(0)  # the channel's reader would wait on its socket for good


if __name__ == "__main__":
    main()
