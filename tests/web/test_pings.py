"""Pings through a proxy's kind of connection: a page whose socket stays open but answers nothing (its
network gone behind a proxy, which acknowledges for it) is closed at the ping after the one it left
unanswered, and a page that answers keeps its channel, however long it stays."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import websocket

from e2e.conftest import Server
from tests.web.test_limits import channel, new_room
from zerogames.web import live

PING_EVERY = 2  # seconds (SOCKET_PING_EVERY), against 25 on the site


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    live = Server(
        tmp_path / "zerogames.db",
        {"ZEROGAMES_PROXIES": "127.0.0.1"},
        app=f"app:create_app({{'SOCKET_PING_EVERY': {PING_EVERY}}})",
    )
    live.start()
    yield live
    live.stop()


def test_a_channel_that_answers_no_ping_is_closed_and_one_that_answers_stays_open(server):
    code, _ = new_room(server)
    silent = channel(server, code)  # says what it shows, then reads nothing: it answers no ping
    silent.send("{}")
    answering = channel(server, code)
    answering.send("{}")
    answering.settimeout(0.5)
    pings, until = 0, time.monotonic() + 4.5 * PING_EVERY
    while time.monotonic() < until:
        try:
            opcode, _ = answering.recv_data(control_frame=True)  # answers each ping as it reads it
        except websocket.WebSocketTimeoutException:
            continue
        assert opcode != websocket.ABNF.OPCODE_CLOSE, "the answering page's channel was closed"
        pings += opcode == websocket.ABNF.OPCODE_PING
    assert pings >= 3
    assert ended_with(silent) == CLOSED_UNANSWERED
    answering.close()


# The close frame (RFC 6455 5.5.1) of a channel whose ping went unanswered: a policy violation.
REASON = b"Ping/Pong timeout"
CLOSED_UNANSWERED = bytes((0x88, 2 + len(REASON))) + (1008).to_bytes(2, "big") + REASON


def ended_with(ws: websocket.WebSocket) -> bytes:
    """The last bytes the server wrote to the socket before closing it, read as they came (reading
    them as frames would answer the pings among them, on a socket the server has closed)."""
    ws.sock.settimeout(1)
    written = b""
    while chunk := ws.sock.recv(65536):
        written += chunk
    return written[-len(CLOSED_UNANSWERED) :]


class Written:
    """A channel as the heartbeat sees it, open, answering its pings and between two pushes: the frames
    written to it."""

    def __init__(self) -> None:
        self.connected, self.pong_received, self.writing, self.sock = True, True, False, self
        self.frames: list[bytes] = []
        self.closed, self.event = threading.Event(), threading.Event()

    def send(self, frame: bytes, _flags: int = 0) -> int:
        self.frames.append(frame)
        return len(frame)

    def close(self, *_reason: Any) -> None:
        self.closed.set()


def test_a_channel_just_pushed_to_skips_a_heartbeat_but_never_its_ping():
    heartbeat = live.Heartbeat()
    heartbeat.beating = True  # no loop of its own: the test beats it
    quiet, busy, pinged = Written(), Written(), Written()
    heartbeat.add(quiet, 25 * live.HEARTBEAT_EVERY)
    heartbeat.add(busy, 25 * live.HEARTBEAT_EVERY)
    heartbeat.add(pinged, 2 * live.HEARTBEAT_EVERY)
    for pushed_to in (busy, pinged):
        heartbeat.pushed(pushed_to)
    heartbeat.beat_once()
    assert (quiet.frames, busy.frames, pinged.frames) == ([live.HEARTBEAT_FRAME], [], [])
    heartbeat.pushed(pinged)
    heartbeat.beat_once()  # nothing pushed to `busy` since the last beat: it hears this one
    assert (quiet.frames, busy.frames) == ([live.HEARTBEAT_FRAME] * 2, [live.HEARTBEAT_FRAME])
    assert pinged.frames == [live.PING_FRAME]


def test_a_channel_in_the_middle_of_a_push_is_neither_beaten_nor_pinged_nor_given_up():
    # A page slow to read takes a push's frame part by part (frames.send): any frame written meanwhile
    # would land inside it. Its last ping unanswered, it is still not closed: it takes what is sent.
    heartbeat = live.Heartbeat()
    heartbeat.beating = True
    slow, pinged = Written(), Written()
    heartbeat.add(slow, 2 * live.HEARTBEAT_EVERY)
    heartbeat.add(pinged, 2 * live.HEARTBEAT_EVERY)
    slow.writing, slow.pong_received, pinged.pong_received = True, False, False
    heartbeat.beat_once()  # a beat for each
    heartbeat.beat_once()  # a ping for each, its last unanswered
    assert slow.frames == [] and not slow.closed.wait(0.5)
    assert pinged.closed.wait(5)  # one not in the middle of a push is given up
    slow.writing = False  # the frame whole
    heartbeat.beat_once()
    heartbeat.beat_once()
    assert slow.frames == [live.HEARTBEAT_FRAME, live.PING_FRAME]
