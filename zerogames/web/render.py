"""Drawing a room for one viewer: from the room's publication and that seat's view, never the state."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from flask import current_app
from markupsafe import Markup

from zerogames.games import GAMES, layout
from zerogames.rooms import Published

from . import tables, talk
from .drawings import Drawings
from .history import game_record
from .templating import TemplateEnvironment
from .viewmodel import (
    NOBODY,
    RoomInfo,
    SeatInfo,
    Viewer,
    as_spectator,
    awaited,
    clock_face,
    room_info,
    seen_seats,
    version_input,
    viewer,
)

# Regions every room page has, whatever its game or status.
COMMON = ("room-version",)

# The lobby's seats change often; its controls (with the name a visitor is typing) seldom.
LOBBY = ("lobby", "lobby-controls")

# The turn clock's region, placed beside every table's first region (its status: whose turn it is).
CLOCK = "clock"


def region_names(game_id: str, status: str) -> tuple[str, ...]:
    if status == "lobby":
        return COMMON + LOBBY
    table = tables.TABLES[game_id].region_names
    return COMMON + table[:1] + (CLOCK,) + table[1:]


@dataclass(slots=True)
class Drawn:
    """A room drawn for one viewer: its regions by id, in page order, and the lines of the regions
    drawn seat by seat (region -> line id -> HTML)."""

    regions: dict[str, str]
    lines: dict[str, dict[str, str]]


# A viewer's own drawings of the regions only they see (a live channel's, kept from push to push):
# by region, what it was drawn from and the HTML.
Kept = dict[str, tuple[tuple[Any, ...], str]]


@dataclass(frozen=True, slots=True)
class Site:
    """What of the app a room's drawing uses, read from Flask's `current_app` once (by a live channel,
    once for its life): each look-up through that proxy cost as much as a few dict look-ups do in a
    whole region, and a push made five of them."""

    drawings: Drawings
    mutes: talk.Mutes


def this_site() -> Site:
    extensions = current_app.extensions
    return Site(extensions["zerogames.drawings"], extensions["zerogames.mutes"])


def render_regions(
    code: str,
    game_id: str,
    published: Published,
    who: Viewer | None = None,
    kept: Kept | None = None,
    site: Site | None = None,
) -> Drawn:
    """Every region of the room as this viewer sees it.

    A region that declares what it is drawn from (Region.drawn_from) is drawn from exactly that: its
    view keys and no others. Where the viewer sees it as a spectator does (Region.seen_alike, and the
    lines of a region drawn seat by seat), it is drawn from the spectator's view and room. So a drawing
    may be handed to anyone it was drawn for, and to no one else. `kept`: the viewer's own drawings
    from before, updated here: a region of theirs whose inputs are as they were is not drawn again.
    `site`: the app's parts it draws with, when the caller has them already (`this_site()`).
    """
    who = who or viewer(code)
    site = site or this_site()
    drawings, env = site.drawings, site.drawings.env
    if published.state is None or published.status == "lobby":
        room = room_info(code, game_id, published, who.uid)
        drawn = Drawn({"room-version": version_input(room)}, {})
        context = {**who.context, "room": room, "view": None, "now": published.at}
        for name in region_names(game_id, published.status)[len(COMMON) :]:
            drawn.regions[name] = draw(env, game_id, name, context)
        drawn.regions.update(talk.regions(published, room, who, kept, site.mutes, fresh=kept is None))
        return drawn
    rules = GAMES[game_id]
    shared = drawings.shared(code, published)
    if "room" not in shared:
        # What of the room a region may be drawn from: not its version, nor who is looking.
        seen = shared["seen seats"] = seen_seats(published)
        seats = [(seat.name, seat.bot, seat.connected, seat.host, seat.rating, seat.away) for seat in seen]
        shared["room"] = repr([code, published.status, seats, published.options])
    room = room_info(code, game_id, published, who.uid, shared["seen seats"])
    drawn = Drawn({"room-version": version_input(room)}, {})
    if "spectator room" not in shared:
        shared["spectator room"] = as_spectator(room)
    view = rules.view(published.state, room.me, published.at)
    # The spectator's view, worked out only by a push that finds something shared not yet drawn (the
    # first of each change), and not kept: the memo keeps only text, which collections never walk.
    public = Lazy(lambda: view if room.me is None else rules.view(published.state, None, published.at))
    # `now` is the moment the view is drawn as of: a table may show how long a card stays in sight.
    context: dict[str, Any] = {**who.context, "room": room, "view": view, "now": published.at}
    # What of the room a viewer's own regions are drawn from, besides their view.
    own = (shared["room"], room.me, room.is_host)
    table = tables.TABLES[game_id]
    for name in region_names(game_id, published.status)[len(COMMON) :]:
        if name == CLOCK:
            drawn.regions[name] = clock_region(env, room, published, shared, who)
            continue
        region = table.region[name]
        keys, alike = region.drawn_from, region.seen_alike
        if region.lines is not None:
            drawn.lines[name] = seat_lines(game_id, name, region.lines, room, shared, public, drawings)
            drawn.regions[name] = lay_out(game_id, name, drawn.lines[name], drawings)
        elif keys is None:
            drawn.regions[name] = draw(env, game_id, name, context)
        elif alike == layout.EVERYONE or (alike == layout.WAITING and view.get("turn") != room.me):
            if name not in shared:
                source = f"{name} {shared['room']} {inputs(public.value, keys, published.at)}"
                spectator = shared["spectator room"]
                seen_by = {**NOBODY, "room": spectator, "view": public.value, "now": published.at}
                shared[name] = drawing(game_id, name, source, keys, seen_by, drawings)
            drawn.regions[name] = shared[name]
        elif kept is not None:
            drawn.regions[name] = own_drawing(env, game_id, name, keys, context, own, kept)
        else:
            source = f"{name} {[*own, who.act_url]!r} {inputs(view, keys, published.at)}"
            drawn.regions[name] = drawing(game_id, name, source, keys, context, drawings)
    if published.status == "over":
        if "game-record" not in shared:
            shared["game-record"] = game_record(code, published.game_no)
        drawn.regions["game-record"] = shared["game-record"]
    drawn.regions.update(talk.regions(published, room, who, kept, site.mutes, fresh=kept is None))
    return drawn


def draw_whole(game_id: str, room: RoomInfo, context: dict[str, Any]) -> dict[str, str]:
    """Every region of a game's table drawn the plain way, from the context's whole view, with nothing
    kept or shared (a replay's step, seen once)."""
    view, regions, env = context["view"], {}, current_app.jinja_env
    for region in tables.TABLES[game_id].regions:
        name, lines = region.name, region.lines
        if lines is None:
            regions[name] = draw(env, game_id, name, context)
            continue
        drawn = []
        for seat in room.seats:
            their = {key: view[key][seat.index] for key in lines.each}
            their |= {key: view[key] == seat.index for key in lines.at}
            drawn.append(draw(env, game_id, f"{name}-line", {"seat": seat, "their": their}))
        regions[name] = draw(env, game_id, name, {"lines": Markup("".join(drawn))})
    return regions


def clock_region(
    env: TemplateEnvironment, room: RoomInfo, published: Published, shared: dict[str, Any], who: Viewer
) -> str:
    """The turn clock, drawn once per change for every viewer it says the same to: all but the seats it
    names (who read "You have until ...") and, when it holds forms (a seat away, or one gone from the
    table), the host, who may hand it to a bot. Its forms' links carry the viewer's tab."""
    # What the clock shows is the same for all but the host, who is also told of the seats gone.
    face_key = ("clock face", room.is_host, room.me if room.is_host else None)
    if face_key not in shared:
        # The deadlines' times of day are the same for every face: formatted once per change.
        if "clock waiting" not in shared:
            shared["clock waiting"] = awaited(published.deadlines, room.names)
        shared[face_key] = clock_face(room, published, shared["clock waiting"])
    face = shared[face_key]
    named = shared.get("clock names")
    if named is None:
        named = shared["clock names"] = (
            {seat for seat, _ in published.deadlines} | published.away | {published.timed_out}
        )
    forms = face is not None and bool(face["away"] or face.get("gone"))
    host = room.is_host and forms
    me = room.me if room.me in named or host else None
    key = (CLOCK, me, host, who.act_url if forms else None)  # the act URL carries the tab
    html = shared.get(key)
    if html is None:
        html = shared[key] = draw(env, room.game_id, CLOCK, {**who.context, "room": room, "face": face})
    return html


class Lazy:
    """A value worked out on first use, if any."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work

    @cached_property
    def value(self) -> Any:
        return self.work()


def own_drawing(
    env: TemplateEnvironment,
    game_id: str,
    name: str,
    keys: tuple[str, ...],
    context: dict[str, Any],
    facts: tuple[Any, ...],
    kept: Kept,
) -> str:
    """A region only this viewer sees, drawn again only when what it is drawn from changed: its view
    keys and the room's `facts`, compared as they are (no text is made of them), to the ones the
    viewer's last drawing of it was made from."""
    view, now = context["view"], context["now"]
    source = (*facts, *(now if key == "now" else view.get(key) for key in keys))
    last = kept.get(name)
    if last is not None and last[0] == source:
        return last[1]
    html = draw(env, game_id, name, {**context, "view": {key: view[key] for key in keys if key in view}})
    kept[name] = (source, html)
    return html


def inputs(view: dict[str, Any], keys: tuple[str, ...], now: float) -> str:
    return repr([now if key == "now" else view.get(key) for key in keys])


def drawing(
    game_id: str, name: str, source: str, keys: tuple[str, ...], context: dict[str, Any], drawings: Drawings
) -> str:
    """The region drawn from `source`: kept from before, or drawn in `context` with only its keys of
    the context's view."""
    html = drawings.get(source)
    if html is None:
        view = context["view"]
        view_keys = {key: view[key] for key in keys if key in view}
        html = draw(drawings.env, game_id, name, {**context, "view": view_keys})
        drawings.put(source, html)
    return html


def seat_lines(
    game_id: str,
    name: str,
    lines: layout.SeatLines,
    room: RoomInfo,
    shared: dict[str, Any],
    public: Lazy,
    drawings: Drawings,
) -> dict[str, str]:
    """Each seat's line of a region drawn seat by seat, by id. A line is drawn from its seat and the
    spectator's view (`public.value`) alone: again only when what it shows of that seat changed, and
    once for every viewer, its seat's badges left as a mark (`line_frame`). Each viewer's lines are
    that drawing with the badges put in: the seat's own player's (with "you") in their own line.
    The lines as everyone else sees them are put together once per change."""
    everyone = shared.get(name)
    if everyone is None:
        everyone = shared[name] = {}
        frames = shared[(name, "frames")] = []
        for seat in shared["seen seats"]:
            their = {key: public.value[key][seat.index] for key in lines.each} | {
                key: public.value[key] == seat.index for key in lines.at
            }
            facts = [seat.index, seat.name, seat.bot, seat.connected, seat.host, seat.rating, seat.away]
            source = f"{name}-line {room.code} {[facts, their]!r}"
            frame = line_frame(game_id, name, seat, their, source, drawings)
            frames.append(frame)
            everyone[f"{name}-{seat.index}"] = badged(frame, seat, drawings)
    if room.me is None:
        return everyone
    mine = badged(shared[(name, "frames")][room.me], room.seats[room.me], drawings)
    return {**everyone, f"{name}-{room.me}": mine}


def line_frame(
    game_id: str, name: str, seat: SeatInfo, their: dict[str, Any], source: str, drawings: Drawings
) -> tuple[str, str]:
    """One seat's line, drawn once for every viewer around a mark where its badges go (a line prints
    them with `seating.badges(seat)`, the one part of it that differs for its own player): the HTML
    before the mark and after it."""
    frame = drawings.get(source)
    if frame is None:
        frame = draw(drawings.env, game_id, f"{name}-line", {"seat": seat, "their": their, "seating": MARKED})
        drawings.put(source, frame)
    head, _, tail = frame.partition(MARK)
    return head, tail


def badged(frame: tuple[str, str], seat: SeatInfo, drawings: Drawings) -> str:
    """A seat's line with its badges as this viewer sees them (`seat.you`: as its own player), drawn
    once per process for each way a seat can look."""
    key = f"badges {[seat.name, seat.bot, seat.connected, seat.host, seat.you, seat.rating, seat.away]!r}"
    badges = drawings.get(key)
    if badges is None:
        badges = drawings.env.flat_globals["seating"].badges(seat)
        drawings.put(key, badges)
    return "".join((frame[0], badges, frame[1]))  # not `+`: Markup's would escape the HTML around it


class Marked:
    """What a seat's line is drawn with in place of the site's seat macros (`seating`): its badges
    are left as a mark, put in for each viewer (`badged`)."""

    @staticmethod
    def badges(seat: SeatInfo) -> Markup:
        return Markup(MARK)


MARKED = Marked()


def lay_out(game_id: str, name: str, lines: dict[str, str], drawings: Drawings) -> str:
    """A region drawn seat by seat: its template only places the lines (`lines`, once), so it is drawn
    once around a mark, and every drawing of it is the lines set in that frame."""
    source = f"{game_id} {name} frame"
    frame = drawings.get(source)
    if frame is None:
        frame = draw(drawings.env, game_id, name, {"lines": Markup(MARK)})
        drawings.put(source, frame)
    head, tail = frame.split(MARK)
    return head + "".join(lines.values()) + tail


# Where a region drawn seat by seat places its lines, and a seat's line its badges: a character no
# template writes.
MARK = "\x00"


def draw(env: TemplateEnvironment, game_id: str, name: str, context: dict[str, Any]) -> str:
    """The region drawn in `context` by the app's template environment (`Site.drawings.env`)."""
    shared = name in COMMON or name in LOBBY or name == CLOCK
    folder = "room" if shared else tables.TABLES[game_id].templates
    return env.draw(f"{folder}/{name}.html", context)
