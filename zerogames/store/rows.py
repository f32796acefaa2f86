"""What the store reads and writes, as plain values: a room and its seats, a game's end and its
players' lines, a player, a game on a player's page, everything a replay is rebuilt from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zerogames.numbers import whole_number
from zerogames.ratings import Line

# One of a game's logged actions: (seat, action, moment, maker).
Logged = tuple[int, dict[str, Any], float, str]


@dataclass
class SeatRow:
    seat: int
    uid: str | None
    name: str
    bot: str | None
    contribution: str | None = None  # for the next deal (zerogames.fairness)


@dataclass
class RoomRow:
    code: str
    game: str
    options: dict[str, Any]
    host: str
    status: str
    game_no: int
    seed: int | None
    version: int
    seats: list[SeatRow]
    ranked: bool = False
    secret: str | None = field(default=None, repr=False)  # the next game's (zerogames.fairness)


@dataclass
class Place:
    """How one player's seat ended a game: a line of that player's history."""

    seat: int
    player: str
    place: int | None  # 1 for a winner; None for a draw or an abandoned game
    score: int
    won: bool
    figures: dict[str, Any]


@dataclass
class GameEnd:
    """How a game ended: finished (with the engine's result) or abandoned (no result), and each
    player's line of history (bots have none)."""

    outcome: str  # finished or abandoned
    result: dict[str, Any] | None
    places: list[Place]
    # The players' lines a rated game rates (zerogames.rooms.ranked), with the end's transaction.
    rated: list[Line] = field(default_factory=list)


@dataclass
class PlayerRow:
    id: str
    name: str
    username: str | None
    password: str | None


@dataclass
class Played:
    """A game on a player's page: what it was, who sat where, and how that player did."""

    code: str
    game_no: int
    game: str
    seats: list[dict[str, Any]]
    started: float
    ended: float
    outcome: str
    seat: int
    place: int | None
    score: int

    @property
    def id(self) -> str:
        return game_id(self.code, self.game_no)


@dataclass
class Record:
    """Everything a replay is rebuilt from: the game's set-up, every action with its moment, the end."""

    code: str
    game_no: int
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    started: float
    ended: float | None
    outcome: str | None
    actions: list[Logged]
    # Seat by player id, for the players who sat at it.
    players_seats: dict[str, int]
    # How the seed was made (zerogames.fairness, as JSON), and the secret it was made from: published
    # once the game is over, never before.
    fairness: dict[str, Any] | None = None
    secret: str | None = field(default=None, repr=False)


@dataclass
class GameLog:
    """What rebuilds a game, read at once: how it began, its latest snapshot (or none) and the number of
    actions it holds, and every action of the game in order: the state is the snapshot and the actions
    after it; the clock and the bots' memories need them all."""

    players: int
    seed: int
    options: dict[str, Any]
    started: float
    snapshot: dict[str, Any] | None
    snapshot_at: int
    actions: list[Logged]
    fairness: dict[str, Any] | None = None  # how the seed was made (zerogames.fairness), as JSON

    def after_snapshot(self) -> list[Logged]:
        return self.actions[self.snapshot_at :]


def game_id(code: str, game_no: int) -> str:
    """A game's name in links: its room's code and its number there (`ABCD-2`)."""
    return f"{code}-{game_no}"


def parse_game_id(text: str) -> tuple[str, int] | None:
    code, _, number = text.upper().partition("-")
    game_no = whole_number(number, 0, 10**9 - 1)
    if not (code.isascii() and code.isalpha()) or game_no is None:
        return None
    return code, game_no


class UsernameTaken(Exception):
    pass
