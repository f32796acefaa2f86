"""A room: its facts, its lock, and the table it publishes to its live channels."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerogames import talk
from zerogames.fairness import Fairness, commitment
from zerogames.games.base import Outcome
from zerogames.talk import Said

from .channels import Subscriber
from .commands import Refused
from .facts import Facts, Seat
from .scheduler import Timer

# Letters only, without the look-alikes I, L and O (1, 1 and 0).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 4
# Codes grow a letter when the shorter ones are hard to find free (RoomRegistry.new_code): this far.
LONGEST_CODE = 8
# How many past publications a room keeps, so that a page's live channel can start from what it shows.
RECENT_PUBLISHED = 32


def first_letters(index: int, count: int) -> str:
    """The first letters of the codes that process `index` of `count` owns, when several share one
    SQLite file (ZEROGAMES_SHARD): a proxy sends each room to its owner by the first letter alone."""
    return CODE_ALPHABET[index::count]


class Moved(Refused):
    """The room is served by another process now (rooms.owners): nothing more is done with it here."""

    def __init__(self) -> None:
        super().__init__("This table has moved: reload the page to go on.")


class RoomLock:
    """A room's lock, which refuses anything more once the room has moved to another process: a
    request, a bot or a timer still holding the room then changes nothing (the new owner has it)."""

    __slots__ = ("held", "room")

    def __init__(self, room: Room) -> None:
        self.room = room
        self.held = threading.RLock()

    def __enter__(self) -> None:
        self.held.acquire()
        if self.room.gone:
            self.held.release()
            raise Moved

    def __exit__(self, *exc: object) -> None:
        self.held.release()


@dataclass(frozen=True, slots=True)
class Published:
    """The room as of one change (`seq`): everything a page of the room is drawn from.

    Not the store's snapshot (a game's dumped state, logged every so many actions): this one is what
    the room hands its pages and live channels, replaced whole on every change.
    """

    seq: int
    version: int
    status: str  # lobby, playing, over
    game_no: int
    state: dict[str, Any] | None
    seats: tuple[Seat, ...]
    host: str
    connected: frozenset[str]
    options: dict[str, Any]
    # When the change was made: every view of it is drawn as of this moment (a view that changes with
    # time alone makes a change of its own when it does, through the scheduler).
    at: float
    # A ranked room (rooms.ranked): each seat's rating, as shown beside its name, by seat.
    ranked: bool = False
    ratings: tuple[str | None, ...] = ()
    # The turn clock: each awaited seat's deadline, the seats away, and the seat a timeout just moved for.
    deadlines: tuple[tuple[int, float], ...] = ()
    away: frozenset[int] = frozenset()
    timed_out: int | None = None
    outcome: Outcome | None = None  # how the game ended, once it has
    # Fair deals: how the current game's seed was made, and the commitment to the next game's secret
    # (never the secret itself).
    fairness: Fairness | None = None
    next_commitment: str | None = None
    talk: tuple[Said, ...] = ()  # what is said around the table (zerogames.talk)
    chat: bool = True  # whether free-text chat is on
    series: tuple[tuple[str, int], ...] = ()  # games won by each name at this table
    kicked: frozenset[str] = frozenset()  # who the host sent away


class Room:
    """A room of this process: its facts (rooms.facts), swapped whole by each command the registry
    carries out, and what serves them here: the lock, the live channels, the published tables, the
    timers and the bots' memories."""

    def __init__(self, code: str, facts: Facts, clock: Callable[[], float]) -> None:
        self.code = code
        self.clock = clock
        self.facts = facts
        self.seq = 0
        self.lock = RoomLock(self)
        self.gone = False  # moved to another process (rooms.owners)
        self.subscribers: list[Subscriber] = []
        # Since when each player has had no live channel open (the turn clock moves for one gone a clock's
        # length): kept while this process serves the room, set and cleared by rooms.channels.
        self.closed: dict[str, float] = {}
        self.pending_bots: set[int] = set()
        # Each bot seat's player, by (game, seat, level): Normal and Hard remember what they were shown.
        self.bots: dict[tuple[int, int, str], Any] = {}
        self.refreshes: set[float] = set()  # moments a push of time-changed views is set for
        self.recent: dict[int, Published] = {}
        # The turn clock's timer for the first deadline; since when every player has been gone (each
        # away, or with no live channel), and the timer that ends the game once they have been too long.
        self.clock_timer: Timer | None = None
        # The deadlines that timer is set by, as the registry last drew them (turn_clock.deadlines).
        self.deadlines: tuple[tuple[int, float], ...] = ()
        self.deserted_since: float | None = None
        self.abandon_timer: Timer | None = None
        self.published = self.publication(None)

    # What pages, tests and the bots read of the facts.
    rules = property(lambda self: self.facts.rules)
    game_id = property(lambda self: self.facts.game_id)
    options = property(lambda self: self.facts.options)
    host = property(lambda self: self.facts.host)
    seats = property(lambda self: self.facts.seats)
    status = property(lambda self: self.facts.status)
    game_no = property(lambda self: self.facts.game_no)
    seed = property(lambda self: self.facts.seed)
    state = property(lambda self: self.facts.state)
    version = property(lambda self: self.facts.version)
    action_count = property(lambda self: self.facts.action_count)
    ranked = property(lambda self: self.facts.ranked)
    ratings = property(lambda self: self.facts.ratings)
    timeouts = property(lambda self: self.facts.timeouts)

    def seat_of(self, uid: str | None) -> int | None:
        return self.facts.seat_of(uid)

    def away(self) -> frozenset[int]:
        return self.facts.away()

    def connected(self) -> frozenset[str]:
        return frozenset(sub.uid for sub in self.subscribers)

    def publication(self, last: Published | None) -> Published:
        """The room as it is now, sharing what has not changed with the `last` publication."""

        # Most changes are moves: the seats, who is connected and the options are as they were, and
        # the publication shares the `last` one's (a room keeps dozens, made a hundred a second
        # across the process, and each object kept is one more for the garbage collector).
        def kept(field: str, now: Any) -> Any:
            before = getattr(last, field, None)
            return before if before == now else now

        facts = self.facts
        return Published(
            self.seq,
            facts.version,
            facts.status,
            facts.game_no,
            facts.state,
            kept("seats", facts.seats),
            facts.host,
            kept("connected", self.connected()),
            kept("options", dict(facts.options)),
            self.clock(),
            facts.ranked,
            kept("ratings", facts.ratings),
            self.deadlines,
            kept("away", facts.away()),
            facts.timed_out,
            facts.outcome,
            facts.fairness,
            kept("next_commitment", facts.secret and commitment(facts.secret)),
            facts.talk,
            talk.chat_on(facts.options, facts.ranked),
            facts.series,
            facts.kicked,
        )

    def changed(self) -> None:
        """Publish the room as it is now to every subscriber (called with the lock held)."""
        self.seq += 1
        self.published = self.publication(self.published)
        self.recent[self.seq] = self.published
        self.recent.pop(self.seq - RECENT_PUBLISHED, None)
        for sub in self.subscribers:
            sub.wake()


def a_code(code: str) -> bool:
    """Whether `code` has the shape of a room code (the registry may never have made it)."""
    return CODE_LENGTH <= len(code) <= LONGEST_CODE and all(letter in CODE_ALPHABET for letter in code)
