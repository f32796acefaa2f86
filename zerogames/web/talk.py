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
from zerogames.store import Unavailable

from .drawings import Drawings
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
            try:
                read = web_registry().store.talk.muted(uid)
            except Unavailable:
                if known is None:
                    raise
                return known  # the store away: the mutes as this process last knew them
            with self.lock:
                self.by_muter[uid] = known = read
        return known

    def set(self, muter: str, muted: str, on: bool) -> None:
        web_registry().store.talk.mute(muter, muted, on)
        with self.lock:
            self.by_muter[muter] = web_registry().store.talk.muted(muter)


def mutes() -> Mutes:
    return current_app.extensions["zerogames.mutes"]


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
    published: Published,
    room: RoomInfo,
    who: Viewer,
    kept: dict[str, Any] | None,
    known: Mutes,
    fresh: bool = False,
) -> dict[str, str]:
    """The talk regions as this viewer sees them; `kept` (a live channel's): the controls drawn again
    only when what they show changed. `known`: the process's mutes (`mutes()`); `fresh`: the
    viewer's read from the store (a page drawn)."""
    try:
        muted = known.of(who.uid, fresh=fresh)
    except Unavailable:
        # The store away and this viewer's mutes never read: no one else's words rather than, perhaps,
        # a muted player's.
        muted = frozenset(said.uid for said in published.talk if said.uid != who.uid)
    return {
        "talk": kept_said_region(published, room, who, muted, kept),
        "talk-controls": controls_region(published, room, who, muted, kept),
    }


def kept_said_region(
    published: Published, room: RoomInfo, who: Viewer, muted: frozenset[str], kept: dict[str, Any] | None
) -> str:
    """What is said, for a live channel (`kept`) as its last push drew it while nothing it shows
    changed: the words (a move leaves them as they were), who of their senders the viewer muted and the
    seats' names. Compared as they are, so a push at a quiet table makes no text of them."""
    talkers = muted & {said.uid for said in published.talk} if muted else muted
    if kept is None:
        return said_region(published, room, who, talkers, web_registry().clock())
    # The seats as published (a move leaves the same object): their names.
    source = (published.talk, talkers, published.seats)
    last = kept.get("talk said")
    if last is None or last[0] != source:
        kept["talk said"] = last = (source, said_region(published, room, who, talkers, None))
    return last[1]


def said_region(
    published: Published, room: RoomInfo, who: Viewer, muted: frozenset[str], now: float | None
) -> str:
    """What is said, drawn once for every viewer who hears the same and has no chat line of their own
    in it (theirs has no Report beside it). Each seat's latest word shows beside it as of the last
    word said (a live page's stylesheet fades it out after SHOWN_FOR seconds), or as of `now` for a
    page drawn: a move leaves the region as it was."""
    heard = talk.heard(published.talk, muted)
    moment = now if now is not None else (heard[-1].at if heard else 0.0)
    fresh = talk.fresh(heard, moment)
    bubbles = [
        (seat, fresh[held.uid])
        for seat, held in zip(room.seats, published.seats, strict=True)
        if held.uid in fresh
    ]
    mine = [said.n for said in heard if said.uid == who.uid and said.kind == "chat"]
    shown = [(seat.index, seat.name, said.n) for seat, said in bubbles]
    source = repr(["talk", room.code, [said.n for said in heard], shown, mine, who.tab])
    drawings: Drawings = current_app.extensions["zerogames.drawings"]
    html = drawings.get(source)
    if html is None:
        context = {**who.context, "room": room, "heard": heard, "bubbles": bubbles, "mine": mine}
        html = current_app.jinja_env.draw("room/talk.html", context)
        drawings.put(source, html)
    return html


def controls_region(
    published: Published, room: RoomInfo, who: Viewer, muted: frozenset[str], kept: dict[str, Any] | None
) -> str:
    """The viewer's own controls: to say something, mute a player, and the host's powers."""
    # Watchers the host may send away: in the lobby only.
    watching = watchers(room.code, published) if room.is_host and room.status == "lobby" else None
    away = who.uid in published.kicked
    source = (
        published.seats,  # who sits where, by name and bot (a move leaves the same object)
        room.me,
        room.is_host,
        published.chat,
        room.status,
        watching,
        away,
        muted,
        who.act_url,
    )
    last = (kept or {}).get("talk controls")
    if last is not None and last[0] == source:
        return last[1]
    context = {
        **who.context,
        "room": room,
        "chat": published.chat,
        "sent_away": away,
        "muted": muted,
        "uids": [seat.uid for seat in published.seats],
        "watchers": watching,
        "talk": talk,
        "levels": bots.LEVELS,
    }
    html = current_app.jinja_env.draw("room/talk-controls.html", context)
    if kept is not None:
        kept["talk controls"] = (source, html)
    return html
