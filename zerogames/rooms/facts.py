"""A room's facts: everything a command is decided on, as one immutable value.

A command never changes a room's facts in place: it is decided into new facts (rooms.commands), which
the registry swaps in whole once they are written. So a refusal, or a write that fails, leaves the facts
exactly as they were, and a page or a timer reading them never sees half a change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from zerogames.clock import AWAY_AFTER
from zerogames.fairness import Fairness
from zerogames.games import GAMES, Game
from zerogames.games.base import Outcome
from zerogames.records import Seated
from zerogames.store import RoomRow, SeatRow
from zerogames.talk import Said


@dataclass(frozen=True)
class Seat:
    uid: str | None
    name: str
    bot: str | None = None  # the bot's level, for a bot's seat (or one playing an away player's)
    # The player's randomness for the next deal (zerogames.fairness), sent as they took the seat.
    contribution: str | None = None


@dataclass(frozen=True)
class Facts:
    game_id: str
    options: Mapping[str, Any]
    host: str
    seats: tuple[Seat, ...] = ()
    status: str = "lobby"  # lobby, playing, over
    game_no: int = 0
    seed: int | None = None
    state: dict[str, Any] | None = None
    # Bumped once by every accepted command, by the registry alone: pages and moves name the table they
    # were drawn from by it.
    version: int = 0
    action_count: int = 0  # actions logged so far in the current game
    # Each seat's last move: the table version it made (or the game's first version). See play.
    acted: Mapping[int, int] = field(default_factory=dict)
    # Each seat's last move as it was sent: the version it was chosen on, and the action. See play.
    last_sent: Mapping[int, tuple[str, Any]] = field(default_factory=dict)
    ranked: bool = False
    # A ranked room's ratings as shown beside each seat's name (rooms.ranked).
    ratings: tuple[str | None, ...] = ()
    # The turn clock (rooms.turn_clock): when the game's last action was logged (every deadline counts
    # from it, so a restart resumes each clock where it was), each seat's timeouts in a row, the seat the
    # last action was a timeout for, and when each player last made a move of their own (by uid). The
    # deadlines running now are no fact: they are drawn from these and the pages open (turn_clock.deadlines).
    last_at: float = 0.0
    timeouts: Mapping[int, int] = field(default_factory=dict)
    timed_out: int | None = None
    moved_at: Mapping[str, float] = field(default_factory=dict)
    # How the game ended (rooms.play.finished), once it has: what its pages read of its end.
    outcome: Outcome | None = None
    # Fair deals (zerogames.fairness): the secret the next game's seed is made from, drawn before its
    # deal so that every seat sees its commitment first (kept from every page, push and log), and how
    # the current game's seed was made.
    secret: str | None = field(default=None, repr=False)  # nor in a traceback's words
    fairness: Fairness | None = None
    # What is said around the table (zerogames.talk), the latest lines; when each sender last spoke.
    talk: tuple[Said, ...] = ()
    last_said: Mapping[str, float] = field(default_factory=dict)
    # Who the host sent away from the room: they take no seat here again.
    kicked: frozenset[str] = frozenset()
    # The evening's games at this table: games won by each name, in the order they first won.
    series: tuple[tuple[str, int], ...] = ()

    @property
    def rules(self) -> Game:
        return GAMES[self.game_id]

    def but(self, **changes: Any) -> Facts:
        """These facts with `changes`, as dataclasses.replace makes them, a few times quicker: replace
        reads every field's definition and passes each through __init__, and a move makes four copies
        of the facts. (No field has a default worked out at init, nor a check of its own.)"""
        if not changes.keys() <= FIELDS:
            raise TypeError(f"Facts have no field {', '.join(sorted(changes.keys() - FIELDS))}")
        after = object.__new__(Facts)
        after.__dict__.update(self.__dict__)
        after.__dict__.update(changes)
        return after

    def seat_of(self, uid: str | None) -> int | None:
        if uid is None:
            return None
        return next((index for index, seat in enumerate(self.seats) if seat.uid == uid), None)

    def away(self) -> frozenset[int]:
        """Players' seats marked away: timed out twice in a row, or handed to a bot by the host."""
        return frozenset(
            seat
            for seat, who in enumerate(self.seats)
            if who.uid is not None and (who.bot is not None or self.timeouts.get(seat, 0) >= AWAY_AFTER)
        )

    def players(self) -> list[int]:
        """The seats that are players' (not bots' own)."""
        return [seat for seat, who in enumerate(self.seats) if who.uid is not None]

    def has_bots(self) -> bool:
        """Whether a bot of its own sits at the table (not one playing for an away player)."""
        return any(seat.bot is not None and seat.uid is None for seat in self.seats)

    def seated(self) -> list[Seated]:
        return [Seated(seat.uid, seat.bot) for seat in self.seats]

    def row(self, code: str) -> RoomRow:
        return RoomRow(
            code,
            self.game_id,
            dict(self.options),
            self.host,
            self.status,
            self.game_no,
            self.seed,
            self.version,
            [SeatRow(i, s.uid, s.name, s.bot, s.contribution) for i, s in enumerate(self.seats)],
            self.ranked,
            self.secret,
        )


FIELDS = frozenset(field.name for field in fields(Facts))


def deserted(facts: Facts, connected: frozenset[str]) -> bool:
    """Every player's seat is away, or has no live channel open."""
    away = facts.away()
    players = facts.players()
    return bool(players) and all(seat in away or facts.seats[seat].uid not in connected for seat in players)
