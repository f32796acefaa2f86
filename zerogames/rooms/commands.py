"""Every change to a room is a command, decided purely and applied once.

`decide(facts, command, context)` reads the room's facts, the command and the moment (and, through the
context, what the store knows of players: who has signed up, their ratings), and answers one of:
- `Refusal`: why not, in words for the player; nothing anywhere has changed;
- `Unchanged`: nothing to do (a move sent twice, a seat already taken), with the answer for the caller;
- `Decision`: the room's new facts and the rows to write.
The registry (rooms.registry) carries a decision out under the room's lock: every write in one
transaction, then the facts swapped in with the version bumped once, one publication, and the timers
the new facts need (bots, turn clock, views that change with time). Deciding writes nothing, sends
nothing and sets no timer, so a refusal touches nothing, and a write that fails leaves the room as it
was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from zerogames.fairness import Fairness
from zerogames.store import GameEnd, RoomRow, Store
from zerogames.talk import Said

from .facts import Facts

# Commands: what a player, the host, a bot, the turn clock or the site asks of a room.


@dataclass(frozen=True)
class Join:
    uid: str
    name: str | None
    contribution: str | None = None  # the player's randomness for the deal (zerogames.fairness)


@dataclass(frozen=True)
class Leave:
    uid: str


@dataclass(frozen=True)
class AddBot:
    uid: str
    level: str


@dataclass(frozen=True)
class RemoveBot:
    uid: str
    seat: int


@dataclass(frozen=True)
class SetOptions:
    uid: str
    options: dict[str, Any]


@dataclass(frozen=True)
class SetClock:
    uid: str
    seconds: int | None


@dataclass(frozen=True)
class SetRanked:
    uid: str
    ranked: bool


@dataclass(frozen=True)
class Draw:
    """What the caller draws for a fair deal (deciding draws nothing; zerogames.fairness): a
    contribution for each seat that sends none, and the secret of the game after this one."""

    contributions: tuple[str, ...]
    next_secret: str = field(repr=False)  # nor in a traceback's words


@dataclass(frozen=True)
class Dealt:
    """A deal made elsewhere, with the secret it was made from (the daily deal: zerogames.daily)."""

    fairness: Fairness
    secret: str = field(repr=False)


@dataclass(frozen=True)
class Deal:
    """What a game is dealt from: the player who deals, and how its seed is made (rooms.lobby)."""

    uid: str
    seed: int | None = None  # a chosen deal (tests, development mode): stacked, not fair
    draw: Draw | None = None
    contribution: str | None = None  # the dealing player's own, from their browser
    dealt: Dealt | None = None  # how the chosen seed was made, if it was fairly


@dataclass(frozen=True)
class Start(Deal):
    """The host deals a game."""


@dataclass(frozen=True)
class Rematch(Deal):
    """A player at the table deals the next game, the seats as they are."""


@dataclass(frozen=True)
class Act:
    uid: str
    version: Any
    action: Any
    seat: Any = None


@dataclass(frozen=True)
class TimeOut:
    """The turn clock's timer, set on table `version`: it moves for the seats whose time ran out."""

    version: int


@dataclass(frozen=True)
class BotMove:
    """A bot's move, chosen on the table as it was at (game_no, version)."""

    seat: int
    level: str
    asked: tuple[int, int]
    action: Any


@dataclass(frozen=True)
class Back:
    uid: str


@dataclass(frozen=True)
class HandToBot:
    uid: str
    seat: int
    level: str = "easy"
    remove: bool = False  # for good: the player is sent away (rooms.play.hand_to_bot)


@dataclass(frozen=True)
class MoveSeat:
    """A rejoin link: the seat moves to the identity that opened it."""

    seat: int
    old_uid: str
    new_uid: str
    moves: int


@dataclass(frozen=True)
class HandOver:
    """A guest signed in: their seat (and hosting) becomes the account's."""

    old_uid: str
    new_uid: str


@dataclass(frozen=True)
class Say:
    """Table talk (zerogames.talk): a reaction, a phrase or a chat line from a seated player."""

    uid: str
    kind: str
    text: str


@dataclass(frozen=True)
class SetChat:
    """The host switches the table's free-text chat on or off."""

    uid: str
    on: bool


@dataclass(frozen=True)
class Kick:
    """The host sends someone away from the lobby (a seated player, or a watcher by identity): they
    cannot take a seat here again."""

    uid: str
    kicked: str


@dataclass(frozen=True)
class Abandon:
    """The game ends where it stands (every player gone); `if_deserted`: only if they still are."""

    if_deserted: bool = False


Command = (
    Join
    | Leave
    | AddBot
    | RemoveBot
    | SetOptions
    | SetClock
    | SetRanked
    | Start
    | Rematch
    | Act
    | TimeOut
    | BotMove
    | Back
    | HandToBot
    | MoveSeat
    | HandOver
    | Say
    | SetChat
    | Kick
    | Abandon
)


# What deciding answers.


class Refused(Exception):
    """A request the room turns down; `reason` is shown to the player, nothing has changed."""

    def __init__(self, reason: str, *, stale: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stale = stale


class Unsaved(Refused):
    """Refused because the store could not write the decision (the database away, its disk full or
    read-only): nothing changed, and the same command may be tried again in a moment."""

    def __init__(self) -> None:
        super().__init__("The table cannot be saved right now: try again in a moment.")


# Seconds before a timer's command (a bot's move, a turn clock's timeout, a deserted table's end)
# that the store could not save is tried again.
RETRY_UNSAVED = 1.0


@dataclass(frozen=True)
class Refusal:
    reason: str
    stale: bool = False  # the move was chosen on an older table: the fresh one goes with the refusal


@dataclass(frozen=True)
class Unchanged:
    answer: Any = None


@dataclass(frozen=True)
class Decision:
    facts: Facts  # the version is the registry's to bump
    writes: tuple[Write, ...]
    answer: Any = None
    # Whether the table changed (its version bumped): talk changes only what is said around it, so a
    # move chosen on the table before a reaction is still a move on the table as it is.
    table: bool = True


Verdict = Refusal | Unchanged | Decision


# The rows a decision writes, each given the store and the room's row as it will be (version bumped).


class Write(Protocol):
    def __call__(self, store: Store, row: RoomRow) -> None: ...


@dataclass(frozen=True)
class SaveRoom:
    def __call__(self, store: Store, row: RoomRow) -> None:
        store.rooms.save(row)


@dataclass(frozen=True)
class SaveMovedSeat:
    seat: int

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.rooms.save_moved_seat(row, self.seat)


@dataclass(frozen=True)
class StartGame:
    players: int
    options: dict[str, Any]
    dumped: dict[str, Any]
    now: float
    fairness: dict[str, Any] | None = None
    secret: str | None = None  # the one the seed was made from, kept with the game

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.games.start(row, self.players, self.options, self.dumped, self.now, self.fairness, self.secret)


@dataclass(frozen=True)
class AppendAction:
    number: int
    seat: int
    action: Any
    now: float
    by: str
    snapshot: dict[str, Any] | None
    end: GameEnd | None

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.games.append(
            row.code,
            row.game_no,
            self.number,
            self.seat,
            self.action,
            self.now,
            self.by,
            row.version,
            self.snapshot,
            self.end,
        )


@dataclass(frozen=True)
class AbandonGame:
    end: GameEnd

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.games.abandon(row.code, row.game_no, row.version, self.end)


@dataclass(frozen=True)
class SaveSaid:
    said: Said

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.talk.add(row.code, self.said)


@dataclass(frozen=True)
class SaveKicked:
    uid: str

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.rooms.kick(row.code, self.uid)


@dataclass(frozen=True)
class RecordWins:
    """The winners of the game that has just ended, by name: the table's series."""

    names: tuple[str, ...]

    def __call__(self, store: Store, row: RoomRow) -> None:
        store.rooms.won(row.code, row.game_no, list(self.names))


# What a decision may know besides the room's facts.


@dataclass(frozen=True)
class Context:
    code: str
    now: float
    connected: frozenset[str]  # players with a live channel open
    bot_delay: float  # an away seat's move comes after a bot's pause
    # What the store knows of players (who has signed up, their ratings, their seats' moves to other
    # devices): read, never written, while deciding.
    store: Store
    # The turn clock's deadlines running now (rooms.turn_clock.deadlines): a timeout is due by them.
    deadlines: tuple[tuple[int, float], ...] = ()
