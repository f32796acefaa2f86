"""The live channel: one WebSocket per open table, pushing that viewer's changed regions.

The socket's own handler is its only sender, so a slow client holds up nobody else. It sleeps until
the room changes, then draws the room's latest snapshot: several quick changes are sent as one, and a
table is never replaced by an older one.
"""

from __future__ import annotations

from flask import Blueprint, request
from flask_sock import Sock

from zerogames.rooms import Subscriber

from . import identity, render
from .registry import web_registry

bp = Blueprint("live", __name__)
sock = Sock()

# Seconds between checks that the socket is still open when nothing changes.
IDLE_CHECK = 20.0


class Pusher:
    """What one socket has been sent, so that each push carries only the regions that changed."""

    def __init__(self, code: str, game_id: str, uid: str) -> None:
        self.code, self.game_id, self.uid = code, game_id, uid
        self.seq = -1
        self.layout: tuple[str, ...] = ()
        self.drawn: render.Drawn = {}

    def seed(self, snap, now: float) -> None:
        """Start from what the page already shows (drawn from `snap` at `now`): nothing to resend."""
        regions = render.render_regions(self.code, self.game_id, snap, self.uid, now, self.drawn)
        self.seq, self.layout = snap.seq, (snap.status, *regions)

    def message(self, snap, now: float) -> str:
        sent = {name: html for name, (_, html) in self.drawn.items()}
        regions = render.render_regions(self.code, self.game_id, snap, self.uid, now, self.drawn)
        self.seq = snap.seq
        layout = (snap.status, *regions)
        if layout != self.layout:
            # The table's layout changed (the game started, or this is the first push): send it whole.
            self.layout = layout
            return render.room_body(regions, snap.status, self.game_id)
        return "".join(html for name, html in regions.items() if sent.get(name) != html)


@sock.route("/r/<code>/live", bp=bp)
def live(ws, code: str) -> None:
    registry = web_registry()
    room = registry.get(code)
    if room is None:
        return
    uid = identity.current_uid()
    pusher = Pusher(room.code, room.game_id, uid)
    shown = room.recent.get(request.args.get("since", type=int))
    at = request.args.get("at", type=float)
    if shown is not None and at is not None:
        pusher.seed(shown, at)
    subscriber = Subscriber(uid)
    registry.subscribe(room, subscriber)
    try:
        while ws.connected:
            subscriber.event.clear()
            snap = room.snapshot
            if snap.seq > pusher.seq:
                message = pusher.message(snap, registry.clock())
                if message:
                    ws.send(message)
            subscriber.event.wait(IDLE_CHECK)
    finally:
        registry.unsubscribe(room, subscriber)
