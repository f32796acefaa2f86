"""The live channel: one WebSocket per open table, pushing that viewer's changed regions.

The socket's own handler is its only sender, so a slow client holds up nobody else. It sleeps until
the room changes, then draws the room's latest snapshot: several quick changes are sent as one, and a
table is never replaced by an older one.
"""

from __future__ import annotations

import json

from flask import Blueprint
from flask_sock import Sock

from zerogames.rooms import Snapshot, Subscriber

from . import render
from .registry import web_registry

bp = Blueprint("live", __name__)
sock = Sock()

# Seconds between checks that the socket is still open when nothing changes.
IDLE_CHECK = 20.0
# Seconds a new socket waits for its page to say what it shows.
HELLO_WAIT = 2.0


class Pusher:
    """What one socket has been sent, so that each push carries only the regions that changed."""

    def __init__(self, code: str, game_id: str, who: render.Viewer) -> None:
        self.code, self.game_id, self.who = code, game_id, who
        self.seq = -1
        self.layout: tuple[str, ...] = ()
        self.sent: dict[str, str] = {}

    def seed(self, snap: Snapshot) -> None:
        """Start from what the page already shows (drawn from `snap`): nothing to resend."""
        self.sent = render.render_regions(self.code, self.game_id, snap, self.who)
        self.seq, self.layout = snap.seq, (snap.status, *self.sent)

    def message(self, snap: Snapshot) -> str:
        regions = render.render_regions(self.code, self.game_id, snap, self.who)
        sent, self.sent, self.seq = self.sent, regions, snap.seq
        layout = (snap.status, *regions)
        if layout != self.layout:
            # The table's layout changed (the game started, or this is the first push): send it whole.
            self.layout = layout
            return render.room_body(regions, snap.status, self.game_id)
        return "".join(html for name, html in regions.items() if sent.get(name) != html)


def what_the_page_shows(ws, room) -> Snapshot | None:
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
    who = render.viewer(room.code)
    pusher = Pusher(room.code, room.game_id, who)
    shown = what_the_page_shows(ws, room)
    if shown is not None:
        pusher.seed(shown)
    subscriber = Subscriber(who.uid)
    registry.subscribe(room, subscriber)
    try:
        while ws.connected:
            subscriber.event.clear()
            snap = room.snapshot
            if snap.seq > pusher.seq:
                message = pusher.message(snap)
                if message:
                    ws.send(message)
            subscriber.event.wait(IDLE_CHECK)
    finally:
        registry.unsubscribe(room, subscriber)
