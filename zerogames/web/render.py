"""Drawing a room for one viewer: from the room's snapshot and that seat's view, never the state."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from flask import current_app

from zerogames.games import GAMES
from zerogames.rooms import Snapshot

from . import identity, tables

# Regions every room page has, whatever its game or status.
COMMON = ("room-version",)


@dataclass(frozen=True)
class SeatInfo:
    index: int
    name: str
    bot: str | None
    connected: bool
    host: bool
    you: bool


@dataclass(frozen=True)
class RoomInfo:
    """The public facts of a room for one viewer (`me` is their seat, None for a spectator)."""

    code: str
    game_id: str
    title: str
    status: str
    version: int
    seq: int
    seats: tuple[SeatInfo, ...]
    me: int | None
    is_host: bool
    min_players: int
    max_players: int
    options: dict[str, Any]

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def can_start(self) -> bool:
        return self.min_players <= len(self.seats) <= self.max_players

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.max_players


def room_info(code: str, game_id: str, snap: Snapshot, uid: str) -> RoomInfo:
    rules = GAMES[game_id]
    me = next((i for i, seat in enumerate(snap.seats) if seat.uid == uid), None)
    seats = tuple(
        SeatInfo(
            i,
            seat.name,
            seat.bot,
            seat.bot is not None or seat.uid in snap.connected,
            seat.uid == snap.host,
            i == me,
        )
        for i, seat in enumerate(snap.seats)
    )
    return RoomInfo(
        code,
        game_id,
        rules.title,
        snap.status,
        snap.version,
        snap.seq,
        seats,
        me,
        uid == snap.host,
        rules.min_players,
        rules.max_players,
        snap.options,
    )


# The lobby's seats change often; its controls (with the name a visitor is typing) seldom.
LOBBY = ("lobby", "lobby-controls")


def region_names(game_id: str, status: str) -> tuple[str, ...]:
    return COMMON + (LOBBY if status == "lobby" else tables.regions(game_id))


def viewer_context() -> dict[str, Any]:
    """What every template of a page knows of its viewer's tab, besides the room and the view."""
    return {"tab": identity.tab_args(), "my_name": identity.current_name()}


# A live viewer's drawn regions: name -> (what it was drawn from, its HTML).
Drawn = dict[str, tuple[Any, str]]


def render_regions(
    code: str, game_id: str, snap: Snapshot, uid: str, drawn: Drawn | None = None
) -> dict[str, str]:
    """Every region of the room as this viewer sees it, by id, in page order.

    With `drawn` (a live channel's memory), a region is drawn again only when what it is drawn from
    changed: most actions touch two or three regions of a table, and drawing is the costly part.
    """
    room = room_info(code, game_id, snap, uid)
    view = None
    if snap.state is not None and snap.status != "lobby":
        view = GAMES[game_id].view(snap.state, room.me, snap.at)
    # `now` is the moment the view is drawn as of: a table may show how long a card stays in sight.
    context: dict[str, Any] = {**viewer_context(), "room": room, "view": view, "now": snap.at}
    # The version and change number are drawn only by the version region: keep them out of the keys.
    settled_room = replace(room, version=0, seq=0)
    sources = tables.DRAWN_FROM.get(game_id, {}) if view is not None else {}
    environment = current_app.jinja_env
    rendered = {}
    for name in region_names(game_id, snap.status):
        keys = sources.get(name)
        source = (settled_room, tuple(view.get(key) for key in keys)) if keys is not None else None
        if drawn is not None and source is not None and name in drawn and drawn[name][0] == source:
            rendered[name] = drawn[name][1]
            continue
        folder = "room" if name in COMMON or name in LOBBY else f"games/{game_id}"
        rendered[name] = environment.get_template(f"{folder}/{name}.html").render(context)
        if drawn is not None:
            drawn[name] = (source, rendered[name])
    return rendered


def room_body(regions: dict[str, str], status: str, game_id: str) -> str:
    """The #room container: what the live channel sends whole when the layout itself changes."""
    inner = "".join(regions.values())
    return f'<div id="room" class="room room-{status} game-{game_id}">{inner}</div>'


def action_value(action: dict[str, Any]) -> str:
    """An action as a form value: the same JSON dict the engine, the log and the tests use."""
    return json.dumps(action, separators=(",", ":"))
