"""What a room's templates are given besides a seat's view: the room's public facts for one viewer,
and who that viewer is."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from flask import url_for
from jinja2 import pass_environment
from markupsafe import Markup

from zerogames.fairness import Fairness
from zerogames.games import GAMES
from zerogames.rooms import Published

from . import identity
from .templating import TemplateEnvironment


@dataclass(slots=True)
class SeatInfo:
    """A seat as one viewer sees it. Never changed once made, and shared by every viewer of a change
    who sees it alike; not frozen, as RoomInfo is not: a push makes several."""

    index: int
    name: str
    bot: str | None
    connected: bool
    host: bool
    you: bool
    rating: str | None = None  # at a ranked table
    away: bool = False  # marked away by the turn clock, or handed to a bot

    def seen_by(self, its_player: bool) -> SeatInfo:
        """The seat as its own player sees it ("you"), or as anyone else does: made directly, where
        dataclasses.replace reads every field's definition first (a push makes one per viewer)."""
        if self.you == its_player:
            return self
        return SeatInfo(
            self.index, self.name, self.bot, self.connected, self.host, its_player, self.rating, self.away
        )


@dataclass(slots=True)
class RoomInfo:
    """The public facts of a room for one viewer (`me` is their seat, None for a spectator).

    Never changed once made (a changed one is made anew, `as_spectator`), but not frozen: a frozen
    dataclass is made field by field through object.__setattr__, four times as slow, and a push makes
    one per viewer (that cost 3% of the instructions of a change and its five pushes)."""

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
    ranked: bool = False
    # Fair deals (zerogames.fairness): how the current game was dealt; the next deal's commitment.
    fairness: Fairness | None = None
    next_commitment: str | None = None
    series: tuple[tuple[str, int], ...] = ()  # games won by each name at this table

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def can_start(self) -> bool:
        return self.min_players <= len(self.seats) <= self.max_players

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.max_players


def seen_seats(published: Published) -> tuple[SeatInfo, ...]:
    """The seats as anyone sees them (nobody is "you"): the same for every viewer of one change."""
    return tuple(
        SeatInfo(
            i,
            seat.name,
            seat.bot,
            seat.bot is not None or seat.uid in published.connected,
            seat.uid == published.host,
            False,
            published.ratings[i] if published.ratings else None,
            i in published.away,
        )
        for i, seat in enumerate(published.seats)
    )


def room_info(
    code: str, game_id: str, published: Published, uid: str, seen: tuple[SeatInfo, ...] | None = None
) -> RoomInfo:
    """The room for the viewer `uid`; `seen`: the change's seen_seats, when worked out already."""
    rules = GAMES[game_id]
    me = next((i for i, seat in enumerate(published.seats) if seat.uid == uid), None)
    seats = seen_seats(published) if seen is None else seen
    if me is not None:
        seats = (*seats[:me], seats[me].seen_by(its_player=True), *seats[me + 1 :])
    return RoomInfo(
        code,
        game_id,
        rules.title,
        published.status,
        published.version,
        published.seq,
        seats,
        me,
        uid == published.host,
        rules.min_players,
        rules.max_players,
        published.options,
        published.ranked,
        published.fairness,
        published.next_commitment,
        published.series,
    )


def clock_face(
    room: RoomInfo, published: Published, waiting: list[dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """What the turn clock shows while a game is played (None: nothing): each awaited seat's deadline,
    soonest first, as a moment (`until`, for the browser's countdown) and a time of day readable
    without script; the seats away; the seat a timeout has just moved for. Or that the game was
    abandoned. `waiting` is the deadlines as `awaited` gives them, when the caller has them already."""
    if published.outcome is not None and not published.outcome.finished:
        return {"abandoned": True, "waiting": [], "away": [], "timed_out": None}
    if published.status != "playing":
        return None
    names = room.names
    # Players gone from the table (no page of it open) whom no clock has marked away: the host may let
    # a bot play for them at once, so that a friends' table never waits on someone who left.
    gone = [
        {"seat": seat, "name": names[seat]}
        for seat, who in enumerate(published.seats)
        if who.uid is not None
        and who.bot is None
        and seat not in published.away
        and who.uid not in published.connected
        and seat != room.me
    ]
    if not (published.deadlines or published.away or (gone and room.is_host)):
        return None
    return {
        "abandoned": False,
        "waiting": awaited(published.deadlines, names) if waiting is None else waiting,
        "away": [
            {"seat": seat, "name": names[seat], "bot": published.seats[seat].bot is not None}
            for seat in sorted(published.away)
        ],
        "gone": gone if room.is_host else [],
        "timed_out": published.timed_out,
        "names": names,
    }


def awaited(deadlines: tuple[tuple[int, float], ...], names: Sequence[str]) -> list[dict[str, Any]]:
    """Each awaited seat's deadline, soonest first, as the clock shows it."""
    waiting = []
    for seat, until in sorted(deadlines, key=lambda deadline: deadline[1]):
        iso = datetime.fromtimestamp(until, UTC).isoformat(timespec="seconds")
        # The time of day read off the ISO form ("2026-12-04T23:30:05+00:00"): strftime took as long.
        shown = f"{iso[11:19]} UTC"
        seen = {"seat": seat, "name": names[seat], "until": round(until, 3), "iso": iso, "shown": shown}
        waiting.append(seen)
    return waiting


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


def as_spectator(room: RoomInfo) -> RoomInfo:
    """The room as someone watching sees it: no seat, no host's rights, nobody is "you"."""
    seats = tuple(seat.seen_by(its_player=False) for seat in room.seats)
    return replace(room, version=0, seq=0, me=None, is_host=False, seats=seats)


def version_input(room: RoomInfo) -> str:
    """The table version every action is chosen on, and the change the page is drawn from: the page
    never swaps in an older table, and tells its live channel what it shows. Sent with every change
    to every viewer, so built directly rather than through a template."""
    return (
        f'<input type="hidden" id="room-version" name="version" value="{room.version}" data-seq="{room.seq}">'
    )


def room_body(regions: dict[str, str], status: str, game_id: str, *, oob: bool = False) -> str:
    """The #room container: what the live channel sends whole when the layout itself changes, and
    what an answer carries (`oob`, swapped in by id) when the page's live channel does not."""
    inner = "".join(regions.values())
    swap = ' hx-swap-oob="true"' if oob else ""
    return f'<div id="room" class="room room-{status} game-{game_id}"{swap}>{inner}</div>'


def action_value(action: dict[str, Any]) -> str:
    """An action as a form value: the same JSON dict the engine, the log and the tests use."""
    try:
        # With its values' types: 1 and True are one key, but not one JSON.
        return written_action(tuple(action.items()), tuple(map(type, action.values())))
    except TypeError:  # a list among its values, which is no key: written each time
        return json.dumps(action, separators=(",", ":"))


def cards_to_play(legal: list[dict[str, Any]]) -> list[Any]:
    """The cards a seat's legal actions let it play, in their order: a hand lights these (a chain of
    Jinja filters took twice as long, in a region drawn at every turn)."""
    return [action["card"] for action in legal if action["type"] == "play"]


@pass_environment
def card_buttons(
    environment: TemplateEnvironment,
    hand: Sequence[str],
    lit: Sequence[str],
    barred_rank: str | None = None,
    reason: str | None = None,
) -> Markup:
    """A hand's cards as buttons, those in `lit` to be played (none lit: the hand is at rest, not
    greyed out); cards of `barred_rank`, when given, are barred now, with `reason` as their title.
    Each button is drawn once per process (room/_card_button.html) and the hand joins them: a hand is
    drawn for two seats at every move, and a template's loop over its cards cost a dozen calls a card."""
    at_rest = not lit
    drawn = (
        environment.draw_once(
            "room/_card_button.html",
            card=card,
            playable=card in lit,
            at_rest=at_rest,
            reason=reason if card[0] == barred_rank and not at_rest else None,
        )
        for card in hand
    )
    return Markup("".join(drawn))


@lru_cache(maxsize=4096)
def written_action(items: tuple[tuple[str, Any], ...], types: tuple[type, ...]) -> str:
    """An action's JSON, written once for every hand that offers it: a table's hands offer the same
    few dozen actions (bids, cards) in every drawing."""
    return json.dumps(dict(items), separators=(",", ":"))
