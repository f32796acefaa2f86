"""A room: its seats, its game, its lock, and the table it publishes to its live channels."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from zerogames.clock import AWAY_AFTER
from zerogames.games import GAMES, Game
from zerogames.records import Seated
from zerogames.store import RoomRow, SeatRow

from .channels import Subscriber
from .scheduler import Timer

# Letters only, without the look-alikes I, L and O (1, 1 and 0).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 4
# Codes grow a letter when the shorter ones are hard to find free (RoomRegistry.new_code): this far.
LONGEST_CODE = 8
NAME_LENGTH = 20
# What every bot's name ends with, and no player's may.
BOT_MARK = "(bot)"
# How many past publications a room keeps, so that a page's live channel can start from what it shows.
RECENT_PUBLISHED = 32


class Refused(Exception):
    """A request the room turns down; `reason` is shown to the player, nothing has changed."""

    def __init__(self, reason: str, *, stale: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stale = stale


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


@dataclass(frozen=True)
class Seat:
    uid: str | None
    name: str
    bot: str | None = None  # the bot's level, for a bot's seat


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


class Room:
    def __init__(
        self, code: str, game_id: str, options: dict[str, Any], host: str, clock: Callable[[], float]
    ) -> None:
        self.code = code
        self.clock = clock
        self.game_id = game_id
        self.rules: Game = GAMES[game_id]
        self.options = options
        self.host = host
        self.seats: list[Seat] = []
        self.status = "lobby"
        self.game_no = 0
        self.seed: int | None = None
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.action_count = 0  # actions logged so far in the current game
        # Each seat's last move: the table version it made (or the game's first version). See `play`.
        self.acted: dict[int, int] = {}
        # Each seat's last move as it was sent: the version it was chosen on, and the action. See `play`.
        self.last_sent: dict[int, tuple[str, Any]] = {}
        self.seq = 0
        self.lock = RoomLock(self)
        self.gone = False  # moved to another process (rooms.owners)
        self.subscribers: list[Subscriber] = []
        self.pending_bots: set[int] = set()
        # Each bot seat's player, by (game, seat, level): Normal and Hard remember what they were shown.
        self.bots: dict[tuple[int, int, str], Any] = {}
        self.refreshes: set[float] = set()  # moments a push of time-changed views is set for
        self.recent: dict[int, Published] = {}
        self.ranked = False
        self.ratings: tuple[str | None, ...] = ()  # as published: see Published
        # The turn clock (turn_clock.TurnClock): when the game's last action was logged (each deadline
        # counts from it, so it survives a restart), each seat's timeouts in a row, the seat the last
        # action was a timeout for, the deadlines running now, and the timers that carry them out.
        self.last_at = 0.0
        self.timeouts: dict[int, int] = {}
        self.timed_out: int | None = None
        self.deadlines: tuple[tuple[int, float], ...] = ()
        self.deserted_since: float | None = None
        self.clock_timer: Timer | None = None
        self.abandon_timer: Timer | None = None
        self.published = self.publication(None)

    def seat_of(self, uid: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if uid is not None and seat.uid == uid:
                return index
        return None

    def away(self) -> frozenset[int]:
        """Players' seats marked away: timed out twice in a row, or handed to a bot by the host."""
        return frozenset(
            seat
            for seat, who in enumerate(self.seats)
            if who.uid is not None and (who.bot is not None or self.timeouts.get(seat, 0) >= AWAY_AFTER)
        )

    def publication(self, last: Published | None) -> Published:
        """The room as it is now, sharing what has not changed with the `last` publication."""

        # Most changes are moves: the seats, who is connected and the options are as they were, and
        # the publication shares the `last` one's (a room keeps dozens, made a hundred a second
        # across the process, and each object kept is one more for the garbage collector).
        def kept(field: str, now: Any) -> Any:
            before = getattr(last, field, None)
            return before if before == now else now

        return Published(
            self.seq,
            self.version,
            self.status,
            self.game_no,
            self.state,
            kept("seats", tuple(self.seats)),
            self.host,
            kept("connected", frozenset(sub.uid for sub in self.subscribers)),
            kept("options", dict(self.options)),
            self.clock(),
            self.ranked,
            kept("ratings", self.ratings),
            self.deadlines,
            kept("away", self.away()),
            self.timed_out,
        )

    def changed(self) -> None:
        """Publish the room as it is now to every subscriber (called with the lock held)."""
        self.seq += 1
        self.published = self.publication(self.published)
        self.recent[self.seq] = self.published
        self.recent.pop(self.seq - RECENT_PUBLISHED, None)
        for sub in self.subscribers:
            sub.wake()

    def seated(self) -> list[Seated]:
        return [Seated(seat.uid, seat.bot) for seat in self.seats]

    def row(self) -> RoomRow:
        return RoomRow(
            self.code,
            self.game_id,
            self.options,
            self.host,
            self.status,
            self.game_no,
            self.seed,
            self.version,
            [SeatRow(i, s.uid, s.name, s.bot) for i, s in enumerate(self.seats)],
            self.ranked,
        )


def a_code(code: str) -> bool:
    """Whether `code` has the shape of a room code (the registry may never have made it)."""
    return CODE_LENGTH <= len(code) <= LONGEST_CODE and all(letter in CODE_ALPHABET for letter in code)


def clean_name(name: str | None) -> str:
    """A player's name as the table shows it: white space folded, and no control or format characters
    (a right-to-left override would turn the words around it; zero-width ones hide one name in
    another). A name that reads as a bot's is kept for the bots."""
    shown = "".join(ch for ch in name or "" if unicodedata.category(ch)[0] != "C")
    name = " ".join(shown.split())[:NAME_LENGTH]
    if not name:
        raise Refused("Choose a name first: it is how the table will know you.")
    if unicodedata.normalize("NFKC", name).casefold().replace(" ", "").endswith(BOT_MARK):
        raise Refused(f"Names ending in {BOT_MARK} are kept for the bots: choose another.")
    return name
