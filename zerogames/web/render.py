"""Drawing a room for one viewer: from the room's snapshot and that seat's view, never the state."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from flask import current_app, templating, url_for
from markupsafe import Markup

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

    @cached_property
    def flat_globals(self) -> dict[str, Any]:
        """The globals as one plain dict, read on first use (after the app has set them all)."""
        return dict(self.globals)

    def draw(self, name: str, context: dict[str, Any]) -> str:
        """What `get_template(name).render(context)` gives, without reading the globals, a chain of
        mappings read key by key, into every context anew (twice: once for the values and once for
        their names): a table draws hundreds of regions a second."""
        template = self.get_template(name)
        drawn = self.context_class(self, {**self.flat_globals, **context}, template.name, template.blocks)
        try:
            return self.concat(template.root_render_func(drawn))
        except Exception:
            self.handle_exception()


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
    known = viewer_context()
    act_url = url_for("table.act", code=code, **known["tab"])
    return Viewer(identity.current_uid(), known["tab"], known["my_name"], act_url)


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

    What every viewer of one change shares (the room's facts, the regions seen alike, the seat lines)
    is worked out once per change, by whichever viewer's push comes first, and kept as text.
    """

    SIZE = 8192
    CHANGES = 128

    def __init__(self) -> None:
        self.entries: OrderedDict[str, str] = OrderedDict()
        self.changes: OrderedDict[tuple[str, int, float], dict[str, Any]] = OrderedDict()
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

    def shared(self, code: str, snap: Snapshot) -> dict[str, Any]:
        """The memo of one change of one room, for every viewer of it."""
        key = (code, snap.seq, snap.at)
        with self.lock:
            memo = self.changes.get(key)
            if memo is None:
                memo = self.changes[key] = {}
                if len(self.changes) > self.CHANGES:
                    self.changes.popitem(last=False)
            return memo


def as_spectator(room: RoomInfo) -> RoomInfo:
    """The room as someone watching sees it: no seat, no host's rights, nobody is "you"."""
    seats = tuple(replace(seat, you=False) for seat in room.seats)
    return replace(room, version=0, seq=0, me=None, is_host=False, seats=seats)


@dataclass(slots=True)
class Drawn:
    """A room drawn for one viewer: its regions by id, in page order, and the lines of the regions
    drawn seat by seat (region -> line id -> HTML)."""

    regions: dict[str, str]
    lines: dict[str, dict[str, str]]


def render_regions(code: str, game_id: str, snap: Snapshot, who: Viewer | None = None) -> Drawn:
    """Every region of the room as this viewer sees it.

    A region that declares what it is drawn from (tables.DRAWN_FROM) is drawn from exactly that: its
    view keys and no others. Where the viewer sees it as a spectator does (tables.SEEN_ALIKE, and the
    lines of tables.BY_SEAT), it is drawn from the spectator's view and room. So a drawing may be
    handed to anyone it was drawn for, and to no one else.
    """
    who = who or viewer(code)
    room = room_info(code, game_id, snap, who.uid)
    drawn = Drawn({"room-version": version_input(room)}, {})
    if snap.state is None or snap.status == "lobby":
        context = {**who.context, "room": room, "view": None, "now": snap.at}
        for name in region_names(game_id, snap.status)[len(COMMON) :]:
            drawn.regions[name] = draw(game_id, name, context)
        return drawn
    rules = GAMES[game_id]
    drawings: Drawings = current_app.extensions["zerogames.drawings"]
    shared = drawings.shared(code, snap)
    if "room" not in shared:
        # What of the room a region may be drawn from: not its version, nor who is looking.
        seats = [(seat.name, seat.bot, seat.connected, seat.host) for seat in room.seats]
        shared["room"] = json.dumps([code, snap.status, seats, room.options])
    view = rules.view(snap.state, room.me, snap.at)
    # The spectator's view, worked out only by a push that finds something shared not yet drawn (the
    # first of each change), and not kept: the memo keeps only text, which collections never walk.
    public = Lazy(lambda: view if room.me is None else rules.view(snap.state, None, snap.at))
    # `now` is the moment the view is drawn as of: a table may show how long a card stays in sight.
    context: dict[str, Any] = {**who.context, "room": room, "view": view, "now": snap.at}
    declared = tables.DRAWN_FROM.get(game_id, {})
    alike = tables.SEEN_ALIKE.get(game_id, {})
    by_seat = tables.BY_SEAT.get(game_id, {})
    own = f"{shared['room']} {json.dumps([room.me, room.is_host, who.act_url])}"
    for name in region_names(game_id, snap.status)[len(COMMON) :]:
        keys = declared.get(name)
        if name in by_seat:
            drawn.lines[name] = seat_lines(game_id, name, by_seat[name], room, shared, public, drawings)
            drawn.regions[name] = lay_out(game_id, name, drawn.lines[name], drawings)
        elif keys is None:
            drawn.regions[name] = draw(game_id, name, context)
        elif alike.get(name) == tables.EVERYONE or (
            alike.get(name) == tables.WAITING and view.get("turn") != room.me
        ):
            if name not in shared:
                source = f"{name} {shared['room']} {inputs(public.value, keys, snap.at)}"
                seen_by = {**NOBODY, "room": as_spectator(room), "view": public.value, "now": snap.at}
                shared[name] = drawing(game_id, name, source, keys, seen_by, drawings)
            drawn.regions[name] = shared[name]
        else:
            source = f"{name} {own} {inputs(view, keys, snap.at)}"
            drawn.regions[name] = drawing(game_id, name, source, keys, context, drawings)
    return drawn


class Lazy:
    """A value worked out on first use, if any."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work

    @cached_property
    def value(self) -> Any:
        return self.work()


def inputs(view: dict[str, Any], keys: tuple[str, ...], now: float) -> str:
    return json.dumps([now if key == "now" else view.get(key) for key in keys])


def drawing(
    game_id: str, name: str, source: str, keys: tuple[str, ...], context: dict[str, Any], drawings: Drawings
) -> str:
    """The region drawn from `source`: kept from before, or drawn in `context` with only its keys of
    the context's view."""
    html = drawings.get(source)
    if html is None:
        view = context["view"]
        html = draw(game_id, name, {**context, "view": {key: view[key] for key in keys if key in view}})
        drawings.put(source, html)
    return html


def seat_lines(
    game_id: str,
    name: str,
    lines: tables.SeatLines,
    room: RoomInfo,
    shared: dict[str, Any],
    public: Lazy,
    drawings: Drawings,
) -> dict[str, str]:
    """Each seat's line of a region drawn seat by seat, by id. A line is drawn from its seat and the
    spectator's view (`public.value`) alone: again only when what it shows of that seat changed, and
    once for everyone but that seat's own player."""
    if name not in shared:
        figures = []
        for seat in room.seats:
            their = {key: public.value[key][seat.index] for key in lines.each} | {
                key: public.value[key] == seat.index for key in lines.at
            }
            facts = [seat.index, seat.name, seat.bot, seat.connected, seat.host]
            figures.append((their, f"{name}-line {room.code} {json.dumps([facts, their])}", {}))
        shared[name] = figures
    drawn = {}
    for seat, (their, source, seen) in zip(room.seats, shared[name], strict=True):
        # `seen`: this change's line for its own player (True) and for everyone else (False).
        html = seen.get(seat.you)
        if html is None:
            html = drawings.get(f"{source} {seat.you}")
            if html is None:
                html = draw(game_id, f"{name}-line", {"seat": seat, "their": their})
                drawings.put(f"{source} {seat.you}", html)
            seen[seat.you] = html
        drawn[f"{name}-{seat.index}"] = html
    return drawn


def lay_out(game_id: str, name: str, lines: dict[str, str], drawings: Drawings) -> str:
    """A region drawn seat by seat: its template only places the lines (`lines`, once), so it is drawn
    once around a mark, and every drawing of it is the lines set in that frame."""
    source = f"{game_id} {name} frame"
    frame = drawings.get(source)
    if frame is None:
        frame = draw(game_id, name, {"lines": Markup(MARK)})
        drawings.put(source, frame)
    head, tail = frame.split(MARK)
    return head + "".join(lines.values()) + tail


# Where a region drawn seat by seat places its lines: a character no template writes.
MARK = "\x00"


def draw(game_id: str, name: str, context: dict[str, Any]) -> str:
    folder = "room" if name in COMMON or name in LOBBY else f"games/{game_id}"
    return current_app.jinja_env.draw(f"{folder}/{name}.html", context)


def version_input(room: RoomInfo) -> str:
    """The table version every action is chosen on, and the change the page is drawn from: the page
    never swaps in an older table, and tells its live channel what it shows. Sent with every change
    to every viewer, so built directly rather than through a template."""
    return (
        f'<input type="hidden" id="room-version" name="version" value="{room.version}" data-seq="{room.seq}">'
    )


def room_body(regions: dict[str, str], status: str, game_id: str) -> str:
    """The #room container: what the live channel sends whole when the layout itself changes."""
    inner = "".join(regions.values())
    return f'<div id="room" class="room room-{status} game-{game_id}">{inner}</div>'


def action_value(action: dict[str, Any]) -> str:
    """An action as a form value: the same JSON dict the engine, the log and the tests use."""
    return json.dumps(action, separators=(",", ":"))
