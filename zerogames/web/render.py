"""Drawing a room for one viewer: from the room's snapshot and that seat's view, never the state."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from flask import current_app, templating, url_for

from zerogames.games import GAMES
from zerogames.rooms import Snapshot

from . import identity, tables


class TemplateEnvironment(templating.Environment):
    """Flask's template environment, reading a dict's keys first: the views are plain dicts read as
    `view.turn` thousands of times a second, where Jinja would first try, and fail, an attribute."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


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


@dataclass(frozen=True)
class Viewer:
    """Who a room is drawn for: read from the request once, and kept by a live channel for its life
    (a socket's identity cannot change while it is open)."""

    uid: str
    tab: dict[str, str]
    my_name: str | None
    act_url: str  # where this tab's moves are posted

    @property
    def context(self) -> dict[str, Any]:
        return {"tab": self.tab, "my_name": self.my_name, "act_url": self.act_url}


def viewer(code: str) -> Viewer:
    tab = identity.tab_args()
    act_url = url_for("table.act", code=code, **tab)
    return Viewer(identity.current_uid(), tab, identity.current_name(), act_url)


# What a region that every viewer sees alike knows of the viewer: nothing.
NOBODY: dict[str, Any] = {"tab": {}, "my_name": None, "act_url": None}


class Drawings:
    """Regions already drawn, for every viewer of every room of the process.

    A region drawn from the same inputs is the same HTML, so each is drawn once per distinct input:
    a region every viewer sees alike (the trick on the table) once per change for all of them, and a
    viewer's own regions again only when what they are drawn from changed. The inputs are kept as
    JSON text, not as the views' own lists and dicts: strings are quick to compare and hash, and the
    garbage collector never has to walk them (a full collection over a heap of kept views stalls every
    table of the process). The drawings asked for least recently are dropped first.
    """

    SIZE = 8192

    def __init__(self) -> None:
        self.entries: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, source: str) -> str | None:
        with self.lock:
            html = self.entries.get(source)
            if html is not None:
                self.entries.move_to_end(source)
            return html

    def put(self, source: str, html: str) -> None:
        with self.lock:
            self.entries[source] = html
            if len(self.entries) > self.SIZE:
                self.entries.popitem(last=False)


def as_spectator(room: RoomInfo) -> RoomInfo:
    """The room as someone watching sees it: no seat, no host's rights, nobody is "you"."""
    seats = tuple(replace(seat, you=False) for seat in room.seats)
    return replace(room, version=0, seq=0, me=None, is_host=False, seats=seats)


def render_regions(
    code: str, game_id: str, snap: Snapshot, who: Viewer | None = None
) -> dict[str, str]:
    """Every region of the room as this viewer sees it, by id, in page order.

    A region that declares what it is drawn from (tables.DRAWN_FROM) is drawn from exactly that: its
    view keys and no others, and, where the viewer sees it as a spectator does (tables.SEEN_ALIKE),
    the room as a spectator sees it. So a drawing may be handed to anyone it was drawn for, and to no
    one else.
    """
    who = who or viewer(code)
    room = room_info(code, game_id, snap, who.uid)
    view = None
    if snap.state is not None and snap.status != "lobby":
        view = GAMES[game_id].view(snap.state, room.me, snap.at)
    rendered = {"room-version": version_input(room)}
    # `now` is the moment the view is drawn as of: a table may show how long a card stays in sight.
    context: dict[str, Any] = {**who.context, "room": room, "view": view, "now": snap.at}
    declared = tables.DRAWN_FROM.get(game_id, {}) if view is not None else {}
    alike = tables.SEEN_ALIKE.get(game_id, {})
    # What of the room a region may be drawn from (no version), and what of the viewer.
    public = json.dumps(
        [code, snap.status, [(s.name, s.bot, s.connected, s.host) for s in room.seats], room.options]
    )
    own = json.dumps([room.me, room.is_host, who.act_url])
    drawings: Drawings = current_app.extensions["zerogames.drawings"]
    for name in region_names(game_id, snap.status)[len(COMMON) :]:
        keys = declared.get(name)
        if keys is None:
            rendered[name] = draw(game_id, name, context)
            continue
        spectating = alike.get(name) == tables.EVERYONE or (
            alike.get(name) == tables.WAITING and view.get("turn") != room.me
        )
        values = json.dumps([snap.at if key == "now" else view.get(key) for key in keys])
        source = f"{name} {public} {'' if spectating else own} {values}"
        html = drawings.get(source)
        if html is None:
            seen_by = {**NOBODY, "room": as_spectator(room)} if spectating else {**who.context, "room": room}
            shown = {key: view[key] for key in keys if key in view}
            html = draw(game_id, name, {**seen_by, "view": shown, "now": snap.at})
            drawings.put(source, html)
        rendered[name] = html
    return rendered


def draw(game_id: str, name: str, context: dict[str, Any]) -> str:
    folder = "room" if name in COMMON or name in LOBBY else f"games/{game_id}"
    return current_app.jinja_env.get_template(f"{folder}/{name}.html").render(context)


def version_input(room: RoomInfo) -> str:
    """The table version every action is chosen on, and the change the page is drawn from: the page
    never swaps in an older table, and tells its live channel what it shows. Sent with every change
    to every viewer, so built directly rather than through a template."""
    return (
        f'<input type="hidden" id="room-version" name="version" value="{room.version}" '
        f'data-seq="{room.seq}">'
    )


def room_body(regions: dict[str, str], status: str, game_id: str) -> str:
    """The #room container: what the live channel sends whole when the layout itself changes."""
    inner = "".join(regions.values())
    return f'<div id="room" class="room room-{status} game-{game_id}">{inner}</div>'


def action_value(action: dict[str, Any]) -> str:
    """An action as a form value: the same JSON dict the engine, the log and the tests use."""
    return json.dumps(action, separators=(",", ":"))
