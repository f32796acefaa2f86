"""A page slow to read its live channel (a phone on a weak network) gets every push whole, in order,
however long the server's writes wait on it: a frame is never cut short, and no heartbeat lands
inside one. Served as the site serves it, under gevent's event loop, in a process of its own (gevent
patches the process), with the server's socket buffer small so that its writes wait part-way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What the process runs: a channel's socket made as flask-sock makes it, pushed `PUSHES` messages of
# different text while its page reads nothing, then read slowly, beaten on by the heartbeat meanwhile.
SERVED = r"""
from gevent import monkey

monkey.patch_all()

import os
import socket
import time

import gevent
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from zerogames.web import live
from zerogames.web.frames import ChannelServer, send

PUSHES, SIZE = 40, 20_000
listener = socket.create_server(("127.0.0.1", 0))
page = socket.socket()
page.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
page.connect(listener.getsockname())
served, _ = listener.accept()
served.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # no room for a push: it waits part-way

client = WSConnection(ConnectionType.CLIENT)
page.sendall(client.send(Request(host="127.0.0.1", target="/r/ABCD/live")))
request = b""
while not request.endswith(b"\r\n\r\n"):
    request += served.recv(4096)
environ = {"gunicorn.socket": served}
for line in request.decode().split("\r\n")[1:]:
    if line:
        name, _, value = line.partition(": ")
        environ["HTTP_" + name.upper().replace("-", "_")] = value
ws = ChannelServer(environ)

pushes = [(f"push {n} " + chr(ord("a") + n % 26) * SIZE) for n in range(PUSHES)]
def push_all():
    for text in pushes:
        send(ws, text)
pushing = gevent.spawn(push_all)
gevent.sleep(0.5)  # the page reads nothing meanwhile: the server's writes wait part-way

# The page reads a little at a time, and after each read the heartbeat is tried on the channel: the
# socket has room again, and the rest of a frame may still be waiting to be written.
heard, part, accepted, beaten = [], "", False, 0
page.settimeout(5)  # what was cut short or lost never comes
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        client.receive_data(page.recv(1024))
    except (TimeoutError, OSError):
        break  # nothing more came
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
"""


def test_a_page_slow_to_read_gets_every_push_whole_and_in_order():
    served = subprocess.run(
        [sys.executable, "-c", SERVED], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert served.returncode == 0, served.stderr[-2000:]
    accepted, whole, beaten, beats = served.stdout.split()
    assert accepted == "True"
    assert whole == "True", "a push reached the page cut short, out of order or not at all"
    # Beats were written between pushes, and each reached the page as an empty message.
    assert int(beaten) > 0
    assert beats == beaten
