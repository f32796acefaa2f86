"""Table talk on a room's page: its two regions, what is said and the controls (to say something,
mute a player or, for the host, switch chat off and send someone away; web.table_talk has their forms).

What a viewer hears leaves out the players they muted (zerogames.talk.heard): their mutes are read from
the store when a page of theirs is drawn, and kept in the process for its live channel's pushes.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from flask import current_app

from zerogames import bots, talk
from zerogames.rooms import Published

from .registry import web_registry
from .viewmodel import RoomInfo, Viewer

REGIONS = ("talk", "talk-controls")


class Mutes:
    """Who each viewer muted, as this process last read or changed it."""

    def __init__(self) -> None:
        self.by_muter: dict[str, frozenset[str]] = {}
        self.lock = threading.Lock()

    def of(self, uid: str, *, fresh: bool = False) -> frozenset[str]:
        known = self.by_muter.get(uid)
        if known is None or fresh:
            known = web_registry().store.talk.muted(uid)
            with self.lock:
                self.by_muter[uid] = known
        return known

    def set(self, muter: str, muted: str, on: bool) -> None:
        web_registry().store.talk.mute(muter, muted, on)
        with self.lock:
            self.by_muter[muter] = web_registry().store.talk.muted(muter)


def mutes() -> Mutes:
    return current_app.extensions.setdefault("zerogames.mutes", Mutes())


def watcher_tag(code: str, uid: str) -> str:
    """How the host's page names a watcher (never by their identity, which is theirs alone)."""
    return hashlib.sha256(f"{code} {uid}".encode()).hexdigest()[:12]


def watchers(code: str, published: Published) -> list[str]:
    """The lobby's watchers as its host's page shows them: those with a live channel open now (a
    watcher's channel publishes no change of its own, so that a crowd of them wakes nobody)."""
    room = web_registry().rooms.get(code)
    connected = room.connected() if room is not None else published.connected
    seated = {seat.uid for seat in published.seats}
    return sorted(watcher_tag(code, uid) for uid in connected - seated)


def regions(
    published: Published, room: RoomInfo, who: Viewer, kept: dict[str, Any] | None, fresh: bool = False
) -> dict[str, str]:
    """The talk regions as this viewer sees them; `kept` (a live channel's): drawn again only when what
    they show changed. `fresh`: the viewer's mutes read from the store (a page drawn)."""
    muted = mutes().of(who.uid, fresh=fresh) & {said.uid for said in published.talk}
    heard = talk.heard(published.talk, muted)
    bubbles = talk.fresh(heard, published.at)
    seats = [(seat.uid, seat.name) for seat in published.seats]
    # Watchers the host may send away: in the lobby only.
    watching = watchers(room.code, published) if room.is_host and room.status == "lobby" else None
    source = (heard, tuple(bubbles), seats, room.me, room.is_host, published.chat, room.status, watching)
    source += (who.uid in published.kicked, tuple(sorted(mutes().of(who.uid))), who.act_url)
    last = (kept or {}).get("talk regions")
    if last is not None and last[0] == source:
        return last[1]
    context = {
        **who.context,
        "room": room,
        "heard": heard,
        "bubbles": [
            (seat, bubbles[uid]) for seat, (uid, _) in zip(room.seats, seats, strict=True) if uid in bubbles
        ],
        "chat": published.chat,
        "sent_away": who.uid in published.kicked,
        "muted": mutes().of(who.uid),
        "uids": [uid for uid, _ in seats],
        "watchers": watching,
        "talk": talk,
        "levels": bots.LEVELS,
    }
    draw = current_app.jinja_env.draw
    drawn = {name: draw(f"room/{name}.html", context) for name in REGIONS}
    if kept is not None:
        kept["talk regions"] = (source, drawn)
    return drawn
