"""The live channel: one WebSocket per open table, pushing that viewer's changed regions.

The socket's own handler is its only sender, so a slow client holds up nobody else. It sleeps until
the room changes, then draws the room's latest publication: several quick changes are sent as one, and a
table is never replaced by an older one.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import simple_websocket.ws
from flask import Blueprint
from flask_sock import Sock
from wsproto.extensions import PerMessageDeflate

from zerogames.rooms import Published, Subscriber

from . import render, viewmodel
from .registry import web_registry

bp = Blueprint("live", __name__)
sock = Sock()


class LightDeflate(PerMessageDeflate):
    """Browsers ask for compressed frames, and get them: a push compresses to about a tenth against the
    ones before it. With a thousand sockets open, though, zlib's default state (256 KB a socket, hash
    tables read at random) no longer fits any cache, and each push costs a tenth of a millisecond more.
    A small hash table and the fastest level halve that, for a few more bytes (about 270 a push, where
    3,000 are allowed)."""

    def frame_outbound(self, proto: Any, opcode: Any, rsv: Any, data: bytes, fin: bool) -> Any:
        if self._compressor is None and self._compressible_opcode(opcode):
            bits = self.client_max_window_bits if proto.client else self.server_max_window_bits
            self._compressor = zlib.compressobj(1, zlib.DEFLATED, -int(bits), 2)
        return super().frame_outbound(proto, opcode, rsv, data, fin)


# simple-websocket offers wsproto's extension by this module-level name when a socket opens.
simple_websocket.ws.PerMessageDeflate = LightDeflate

# Seconds a new socket waits for its page to say what it shows.
HELLO_WAIT = 2.0


class Pusher:
    """What one socket has been sent, so that each push carries only the regions that changed."""

    def __init__(self, code: str, game_id: str, who: viewmodel.Viewer) -> None:
        self.code, self.game_id, self.who = code, game_id, who
        self.seq = -1
        self.layout: tuple[str, ...] = ()
        self.sent = render.Drawn({}, {})

    def seed(self, published: Published) -> None:
        """Start from what the page already shows (drawn from `published`): nothing to resend."""
        self.sent = render.render_regions(self.code, self.game_id, published, self.who)
        self.seq, self.layout = published.seq, (published.status, *self.sent.regions)

    def message(self, published: Published) -> str:
        drawn = render.render_regions(self.code, self.game_id, published, self.who)
        sent, self.sent, self.seq = self.sent, drawn, published.seq
        layout = (published.status, *drawn.regions)
        if layout != self.layout:
            # The table's layout changed (the game started, or this is the first push): send it whole.
            self.layout = layout
            return viewmodel.room_body(drawn.regions, published.status, self.game_id)
        changed = []
        for name, html in drawn.regions.items():
            if sent.regions.get(name) == html:
                continue
            lines, shown = drawn.lines.get(name), sent.lines.get(name)
            if lines is not None and shown is not None and lines.keys() == shown.keys():
                # A region drawn seat by seat only lays out its lines: send the lines that changed.
                changed += [line for key, line in lines.items() if shown[key] != line]
            else:
                changed.append(html)
        return "".join(changed)


def what_the_page_shows(ws, room) -> Published | None:
    """The page's first (and only) message names the change its table was drawn from.

    A page that says nothing, or whose change the room no longer keeps, is sent its table whole.
    """
    try:
        return room.recent.get(int(json.loads(ws.receive(timeout=HELLO_WAIT) or "{}")["seq"]))
    except (ValueError, KeyError, TypeError):
        return None


@sock.route("/r/<code>/live", bp=bp)
def live(ws, code: str) -> None:
    registry = web_registry()
    room = registry.get(code)
    if room is None:
        return
    who = viewmodel.viewer(room.code)
    pusher = Pusher(room.code, room.game_id, who)
    shown = what_the_page_shows(ws, room)
    if shown is not None:
        pusher.seed(shown)
    subscriber = Subscriber(who.uid)
    registry.subscribe(room, subscriber)
    try:
        while ws.connected:
            subscriber.event.clear()
            published = room.published
            if published.seq > pusher.seq:
                message = pusher.message(published)
                if message:
                    ws.send(message)
            subscriber.event.wait()  # a change, or the registry's regular waking (wake_everyone)
    finally:
        registry.unsubscribe(room, subscriber)
