"""Drawing a room for one viewer: from the room's snapshot and that seat's view, never the state."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import render_template

from zerogames.games import GAMES
from zerogames.rooms import Snapshot

from . import tables

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


def render_regions(code: str, game_id: str, snap: Snapshot, uid: str, now: float) -> dict[str, str]:
    """Every region of the room as this viewer sees it, by id, in page order."""
    room = room_info(code, game_id, snap, uid)
    context: dict[str, Any] = {"room": room}
    if snap.state is not None and snap.status != "lobby":
        context["view"] = GAMES[game_id].view(snap.state, room.me, now)
    rendered = {}
    for name in region_names(game_id, snap.status):
        folder = "room" if name in COMMON or name in LOBBY else f"games/{game_id}"
        rendered[name] = render_template(f"{folder}/{name}.html", **context)
    return rendered


def room_body(regions: dict[str, str], status: str, game_id: str) -> str:
    """The #room container: what the live channel sends whole when the layout itself changes."""
    inner = "".join(regions.values())
    return f'<div id="room" class="room room-{status} game-{game_id}">{inner}</div>'


def action_value(action: dict[str, Any]) -> str:
    """An action as a form value: the same JSON dict the engine, the log and the tests use."""
    return json.dumps(action, separators=(",", ":"))
