"""A page's messages over its live channel, however they reach the server: compressed as browsers send
them or not, two in one read, one cut between two reads, one in fragments. Each is taken as sent, and a
message the channel cannot take closes it with the reason, the table as it was."""

from __future__ import annotations

import json
import socket
import time

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Ping,
    Request,
    TextMessage,
)
from wsproto.extensions import PerMessageDeflate
from wsproto.frame_protocol import CloseReason

from e2e.conftest import Server
from tests.web.test_channel_moves import first_move, page, started_table, version
from tests.web.test_limits import server as server  # the site these tests play on, one per module
from zerogames.web.live import MOVE_LENGTH


class Page:
    """A table's page's live channel, spoken to frame by frame (wsproto's client, as the benchmark's),
    compressed when `deflate` as browsers ask."""

    def __init__(self, server: Server, code: str, cookie: str, deflate: bool = True) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.messages: list[str] = []
        self.closed: CloseConnection | None = None
        self.part = ""
        self.write(
            self.ws.send(
                Request(
                    host=f"127.0.0.1:{server.port}",
                    target=f"/r/{code}/live",
                    extra_headers=[(b"cookie", cookie.encode())],
                    extensions=[PerMessageDeflate()] if deflate else [],
                )
            )
        )
        while not any(isinstance(event, AcceptConnection) for event in self.read()):
            pass

    def bytes_of(self, *messages: str | TextMessage) -> bytes:
        """The frames of these messages, as this page's socket sends them."""
        return b"".join(self.ws.send(TextMessage(m) if isinstance(m, str) else m) for m in messages)

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self) -> list:
        data = self.sock.recv(65536)
        self.ws.receive_data(data or None)
        events = list(self.ws.events())
        for event in events:
            if isinstance(event, TextMessage):
                self.part += event.data
                if event.message_finished:
                    self.messages.append(self.part)
                    self.part = ""
            elif isinstance(event, Ping):
                self.write(self.ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                self.closed = event
        return events

    def push_with(self, part: str, seconds: float = 5) -> str:
        deadline = time.monotonic() + seconds
        while not any(part in message for message in self.messages):
            assert self.closed is None, f"closed: {self.closed}"
            assert time.monotonic() < deadline, f"no push held {part!r} within {seconds} s"
            self.read()
        return next(message for message in self.messages if part in message)

    def close_code(self, seconds: float = 5) -> int:
        deadline = time.monotonic() + seconds
        while self.closed is None:
            assert time.monotonic() < deadline, "the channel stayed open"
            self.read()
        return self.closed.code


def a_move(shown: str, later: int = 0) -> str:
    """The page's first move, as made on the table it shows (or `later` changes after it)."""
    return json.dumps({"move": {"version": str(int(version(shown)) + later), "action": first_move(shown)}})


def cut(data: bytes) -> list[bytes]:
    """The data in two writes, its last frame (a move's, some 60 bytes) cut in two."""
    return [data[:-12], data[-12:]]


ARRIVALS = {
    "compressed, with its hello in one read": (True, lambda page, hello, move: [page.bytes_of(hello, move)]),
    "uncompressed, with its hello": (False, lambda page, hello, move: [page.bytes_of(hello, move)]),
    "cut between two reads": (True, lambda page, hello, move: cut(page.bytes_of(hello, move))),
    "in fragments": (
        True,
        lambda page, hello, move: [
            page.bytes_of(
                hello,
                TextMessage(move[:10], message_finished=False),
                TextMessage(move[10:], message_finished=True),
            )
        ],
    ),
}


@pytest.mark.parametrize("arrival", ARRIVALS)
def test_a_move_is_made_however_its_frames_reach_the_server(server, arrival):
    code, (mover, *_) = started_table(server)
    shown = page(server, code, mover)
    deflate, writes = ARRIVALS[arrival]
    mine = Page(server, code, mover, deflate)
    for data in writes(mine, json.dumps({"seq": 0}), a_move(shown)):
        mine.write(data)
        time.sleep(0.05)  # each its own read
    mine.push_with(f'name="version" value="{int(version(shown)) + 1}"')
    assert version(page(server, code, mover)) == str(int(version(shown)) + 1)
    # The channel reads on in step (a compressed message is inflated in the context of the ones before
    # it): the same move again, on the table it made, is read, and refused as not this page's turn.
    mine.write(mine.bytes_of(a_move(shown, later=1)))
    mine.push_with('class="notice"')


REFUSED = {
    "longer than a move": (lambda page: page.bytes_of("x" * (MOVE_LENGTH + 1)), CloseReason.MESSAGE_TOO_BIG),
    "not UTF-8": (lambda page: b"\x81\x82" + bytes(4) + b"\xc3\x28", CloseReason.INVALID_FRAME_PAYLOAD_DATA),
    "compressed data that does not inflate": (
        lambda page: b"\xc1\x83" + bytes(4) + b"\xff\xff\xff",
        CloseReason.INVALID_FRAME_PAYLOAD_DATA,
    ),
}


@pytest.mark.parametrize("message", REFUSED)
def test_a_message_the_channel_cannot_take_closes_it_with_the_reason_and_changes_nothing(server, message):
    code, (mover, *_) = started_table(server)
    shown = page(server, code, mover)
    mine = Page(server, code, mover)
    mine.write(mine.bytes_of(json.dumps({"seq": 0})))
    time.sleep(0.05)
    frames, reason = REFUSED[message]
    # The refused message, then a move in the same read: nothing after the refusal is taken.
    mine.write(frames(mine) + mine.bytes_of(a_move(shown)))
    assert mine.close_code() == reason
    assert version(page(server, code, mover)) == version(shown)
