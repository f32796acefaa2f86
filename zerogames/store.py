"""SQLite persistence through sqlite-utils: rooms, seats, games, the action log and snapshots; players,
their accounts and the history of the games they played.

Every accepted action is appended in its own transaction before anyone is told of it, so a server
killed at any moment comes back with every acknowledged action. WAL with synchronous=NORMAL: a
commit survives the process dying (the data is in the operating system's hands); an operator who
wants it to survive a power cut too sets ZEROGAMES_SYNC=FULL.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlite_utils

from zerogames import ratings
from zerogames.numbers import whole_number
from zerogames.ratings import Line, Rating

# A snapshot every so many actions keeps a rebuild short whatever the game's length.
SNAPSHOT_EVERY = 50
# Bytes the write-ahead log is cut back to once copied into the database (a few seconds of actions).
JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024


@dataclass
class SeatRow:
    seat: int
    uid: str | None
    name: str
    bot: str | None


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
    actions: list[tuple[int, dict[str, Any], float, str]]
    # Seat by player id, for the players who sat at it.
    players_seats: dict[str, int]


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


@dataclass
class GameLog:
    """What rebuilds a game, read at once: how it began, its latest snapshot (or none) and the number of
    actions it holds, and every action of the game in order, (seat, action, moment, maker): the state
    is the snapshot and the actions after it; the clock and the bots' memories need them all."""

    players: int
    seed: int
    options: dict[str, Any]
    started: float
    snapshot: dict[str, Any] | None
    snapshot_at: int
    actions: list[tuple[int, dict[str, Any], float, str]]

    def after_snapshot(self) -> list[tuple[int, dict[str, Any], float, str]]:
        return self.actions[self.snapshot_at :]


class Store:
    """The site's store, on SQLite; zerogames.postgres.PostgresStore is the same on PostgreSQL.

    Its SQL is written once for both: `?` placeholders, `on conflict` upserts, no SQLite-only words.
    """

    # A write transaction takes SQLite's write lock at once: no two writers, so no read-then-write
    # within one (the next rating's number, say) is ever stale.
    BEGIN = "begin immediate"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(f"PRAGMA synchronous={os.environ.get('ZEROGAMES_SYNC', 'NORMAL')}")
        connection.execute("PRAGMA busy_timeout=5000")
        # Once copied back, the write-ahead log is cut back to this size: a burst grows it, and it
        # would otherwise keep its largest size for good.
        connection.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
        self.db = sqlite_utils.Database(connection)
        # One connection shared by every thread of the process: the lock keeps one writer at a time.
        # Re-entrant, so that one transaction can hold several writes (a room's command writes once).
        self.lock = threading.RLock()
        self.depth = 0  # transactions open within each other (only the outermost commits)
        self.path = str(path)
        self.checkpointer: sqlite3.Connection | None = None
        self.create_tables()

    def checkpoint_apart(self) -> bool:
        """Commits stop copying the log into the database file; `checkpoint` does it, elsewhere.

        By default the commit that fills the write-ahead log past a thousand pages also copies it back
        and waits for the disk (some 15 ms here, every couple of seconds under load), and in the gevent
        worker every table of the process waits with it. The worker calls `checkpoint` from a thread
        of its own instead (zerogames/serving.py). True: checkpoints are now the caller's to make.
        """
        with self.lock:
            self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.checkpointer = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        return True

    def close(self) -> None:
        with self.lock:
            self.db.conn.close()
        if self.checkpointer is not None:
            self.checkpointer.close()

    def checkpoint(self) -> None:
        """Copy what the log holds into the database file, without waiting for readers or writers."""
        if self.checkpointer is not None:
            self.checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def create_tables(self) -> None:
        db = self.db
        with self.lock:
            if "rooms" not in db.table_names():
                db["rooms"].create(
                    {
                        "code": str,
                        "game": str,
                        "options": str,
                        "host": str,
                        "status": str,
                        "game_no": int,
                        "seed": int,
                        "version": int,
                        "created": float,
                        "updated": float,
                    },
                    pk="code",
                )
                db["rooms"].create_index(["status"])
            if "seats" not in db.table_names():
                db["seats"].create(
                    {"code": str, "seat": int, "uid": str, "name": str, "bot": str}, pk=("code", "seat")
                )
            if "games" not in db.table_names():
                db["games"].create(
                    {
                        "code": str,
                        "game_no": int,
                        "game": str,
                        "players": int,
                        "seed": int,
                        "options": str,
                        "seats": str,
                        "started": float,
                        "finished": float,
                        "result": str,
                    },
                    pk=("code", "game_no"),
                )
            if "actions" not in db.table_names():
                db["actions"].create(
                    {
                        "code": str,
                        "game_no": int,
                        "n": int,
                        "seat": int,
                        "action": str,
                        "now": float,
                        "by": str,
                        "version": int,
                    },
                    pk=("code", "game_no", "n"),
                )
            if "seat_moves" not in db.table_names():
                # How often each seat has moved to another device: a rejoin link is good for one move.
                db["seat_moves"].create({"code": str, "seat": int, "moves": int}, pk=("code", "seat"))
            if "snapshots" not in db.table_names():
                db["snapshots"].create(
                    {"code": str, "game_no": int, "n": int, "state": str}, pk=("code", "game_no", "n")
                )
            self.create_rating_tables()
            self.create_record_tables()
            self.create_session_tables()

    def create_rating_tables(self) -> None:
        """Ranked rooms, and ratings (zerogames.ratings): each player's at each game, and every rated
        game's lines."""
        db = self.db
        if "ranked" not in db["rooms"].columns_dict:
            # 1 for a room its host marked ranked.
            db["rooms"].add_column("ranked", int)
        if "ratings" not in db.table_names():
            db["ratings"].create(
                {"game": str, "player": str, "mu": float, "sigma": float, "ordinal": float, "games": int},
                pk=("game", "player"),
            )
        # A leaderboard reads a game's ratings best first, and counts those above a player's, from this
        # index alone (sigma tells the settled).
        db["ratings"].create_index(["game", "ordinal", "sigma"], if_not_exists=True)
        if "rating_history" not in db.table_names():
            # One line per player of each rated game, numbered in the order the game's ratings were
            # updated (`n`): what a recompute rates again, and each player's chart. mu and sigma are
            # the player's rating after that game.
            db["rating_history"].create(
                {
                    "game": str,
                    "n": int,
                    "code": str,
                    "game_no": int,
                    "seat": int,
                    "player": str,
                    "side": int,
                    "place": int,
                    "mu": float,
                    "sigma": float,
                    "ended": float,
                },
                pk=("game", "n", "seat"),
            )
            db["rating_history"].create_index(["player", "game", "n"])

    def create_record_tables(self) -> None:
        """Players and their history: plain tables and columns, as any SQL database holds them."""
        db = self.db
        if "outcome" not in db["games"].columns_dict:
            # How the game ended (finished, abandoned), beside when and with what result.
            db["games"].add_column("outcome", str)
        if "players" not in db.table_names():
            # A guest is a player from their first game; an account is that player with a username
            # (`handle` is the username in lower case, unique: Ann and ann are one account).
            db["players"].create(
                {
                    "id": str,
                    "name": str,
                    "username": str,
                    "handle": str,
                    "password": str,
                    "created": float,
                    "signed_up": float,
                },
                pk="id",
            )
            db["players"].create_index(["handle"], unique=True)
        if "settings" not in db["players"].columns_dict:
            # An account's comfort settings (zerogames.web.settings), as a browser's cookie holds them.
            db["players"].add_column("settings", str)
        if "plays" not in db.table_names():
            # One line of a player's history per game they sat in, once the game has ended.
            db["plays"].create(
                {
                    "code": str,
                    "game_no": int,
                    "seat": int,
                    "player": str,
                    "game": str,
                    "ended": float,
                    "place": int,
                    "score": int,
                    "won": int,
                    "figures": str,
                },
                pk=("code", "game_no", "seat"),
            )
            db["plays"].create_index(["player", "ended"])

    def create_session_tables(self) -> None:
        """Sign-ins: each signed-in browser's session, by the digest of the token its cookie holds (the
        token itself is kept nowhere but in that cookie)."""
        db = self.db
        if "sessions" not in db.table_names():
            db["sessions"].create({"id": str, "player": str, "created": float}, pk="id")
            db["sessions"].create_index(["player"])

    # Owners of rooms (zerogames.rooms.owners): on SQLite, the rooms of a process's letters are its own.

    def own(self, code: str) -> bool:
        """Whether this process may serve the room (and does from now on)."""
        return True

    def disown(self, code: str) -> None:
        """The room is no longer served here."""

    def ask_others(self, request: str, *args: str) -> None:
        """Ask every other process of the site to do something (`listen_to_others`): on SQLite there
        are none that could, or whose rooms could move."""

    def listen_to_others(self, answers: dict[str, Callable[..., None]]) -> None:
        """Do `answers[request](*args)` whenever another process asks."""

    # Rooms and seats

    def code_taken(self, code: str) -> bool:
        """A room has the code, or had it and played games under it: the history keeps it."""
        with self.lock:
            return (
                self.db.execute(
                    "select 1 from rooms where code = ? union all select 1 from games where code = ?",
                    [code, code],
                ).fetchone()
                is not None
            )

    def idle_rooms(self, before: float) -> list[str]:
        """Rooms never started or finished, unchanged since `before`: the ones kept no longer."""
        with self.lock:
            return [
                row[0]
                for row in self.db.execute(
                    "select code from rooms where status != 'playing' and updated < ?", [before]
                )
            ]

    def drop_room(self, code: str, before: float) -> bool:
        """The room and its seats, gone if still idle since `before` (its games stay in the history)."""
        with self.transaction():
            idle = self.db.execute(
                "select 1 from rooms where code = ? and status != 'playing' and updated < ?", [code, before]
            ).fetchone()
            if idle:
                self.db.execute("delete from seats where code = ?", [code])
                self.db.execute("delete from seat_moves where code = ?", [code])
                self.db.execute("delete from rooms where code = ?", [code])
        return idle is not None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing; a transaction opened within another is part of it. (sqlite-utils' own writes
        commit as they go, so writes here are plain SQL.)"""
        with self.lock:
            if self.depth:
                self.depth += 1
                try:
                    yield
                finally:
                    self.depth -= 1
                return
            self.db.execute(self.BEGIN)
            self.depth = 1
            try:
                yield
            except BaseException:
                self.depth = 0
                self.db.execute("rollback")
                raise
            self.depth = 0
            self.db.execute("commit")

    def save_room(self, room: RoomRow) -> None:
        """The room's row and all its seats, in one transaction (lobby changes, starts, rematches)."""
        with self.transaction():
            self.write_room(room)

    def seat_moves(self, code: str, seat: int) -> int:
        with self.lock:
            row = self.db.execute(
                "select moves from seat_moves where code = ? and seat = ?", [code, seat]
            ).fetchone()
        return row[0] if row else 0

    def save_moved_seat(self, room: RoomRow, seat: int) -> None:
        """The room with a seat moved to another device, and that seat's moves counted, at once."""
        with self.transaction():
            self.write_room(room)
            self.db.execute(
                "insert into seat_moves (code, seat, moves) values (?, ?, 1)"
                " on conflict(code, seat) do update set moves = seat_moves.moves + 1",
                [room.code, seat],
            )

    def write_room(self, room: RoomRow) -> None:
        """The room's row and all its seats (within a transaction)."""
        now = time.time()
        self.db.execute(
            "insert into rooms"
            " (code, game, options, host, status, game_no, seed, version, created, updated, ranked)"
            " values (?,?,?,?,?,?,?,?,?,?,?) on conflict(code) do update set options = excluded.options,"
            " host = excluded.host, status = excluded.status, game_no = excluded.game_no,"
            " seed = excluded.seed, version = excluded.version, updated = excluded.updated,"
            " ranked = excluded.ranked",
            [
                room.code,
                room.game,
                json.dumps(room.options),
                room.host,
                room.status,
                room.game_no,
                room.seed,
                room.version,
                now,
                now,
                int(room.ranked),
            ],
        )
        self.db.execute("delete from seats where code = ?", [room.code])
        for s in room.seats:
            self.db.execute(
                "insert into seats (code, seat, uid, name, bot) values (?,?,?,?,?)",
                [room.code, s.seat, s.uid, s.name, s.bot],
            )

    def load_room(self, code: str) -> RoomRow | None:
        with self.lock:
            rows = list(self.db.query("select * from rooms where code = ?", [code]))
            if not rows:
                return None
            row = rows[0]
            seats = [
                SeatRow(s["seat"], s["uid"], s["name"], s["bot"])
                for s in self.db.query("select * from seats where code = ? order by seat", [code])
            ]
        return RoomRow(
            row["code"],
            row["game"],
            json.loads(row["options"]),
            row["host"],
            row["status"],
            row["game_no"],
            row["seed"],
            row["version"],
            seats,
            bool(row["ranked"]),
        )

    def unfinished_rooms(self) -> list[str]:
        with self.lock:
            return [r["code"] for r in self.db.query("select code from rooms where status != 'over'")]

    # Games and their action log

    def start_game(
        self,
        room: RoomRow,
        players: int,
        options: dict[str, Any],
        state: dict[str, Any],
        started: float | None = None,
    ) -> None:
        """The room row, its seats and the new game's record, with its opening snapshot, at once.

        `started` is the moment by the rooms' clock (the first turn's clock counts from it).
        """
        with self.transaction():
            self.db.execute(
                "insert into games (code, game_no, game, players, seed, options, seats, started)"
                " values (?,?,?,?,?,?,?,?) on conflict (code, game_no) do update set game = excluded.game,"
                " players = excluded.players, seed = excluded.seed, options = excluded.options,"
                " seats = excluded.seats, started = excluded.started",
                [
                    room.code,
                    room.game_no,
                    room.game,
                    players,
                    room.seed,
                    json.dumps(options),
                    json.dumps([s.__dict__ for s in room.seats]),
                    time.time() if started is None else started,
                ],
            )
            self.db.execute(
                "insert into snapshots (code, game_no, n, state) values (?,?,?,?)"
                " on conflict (code, game_no, n) do update set state = excluded.state",
                [room.code, room.game_no, 0, json.dumps(state)],
            )
            for seat in room.seats:
                if seat.uid is not None:
                    self.db.execute(
                        "insert into players (id, name, created) values (?,?,?)"
                        " on conflict (id) do update set name = excluded.name",
                        [seat.uid, seat.name, time.time()],
                    )
            self.db.execute(
                "update rooms set status = ?, game_no = ?, seed = ?, version = ?, updated = ? where code = ?",
                [room.status, room.game_no, room.seed, room.version, time.time(), room.code],
            )

    def append_action(
        self,
        code: str,
        game_no: int,
        n: int,
        seat: int,
        action: dict[str, Any],
        now: float,
        by: str,
        version: int,
        snapshot: dict[str, Any] | None = None,
        end: GameEnd | None = None,
    ) -> None:
        """Action n of the game, durable when this returns; a snapshot and the game's end ride along."""
        with self.transaction():
            self.db.execute(
                "insert into actions (code, game_no, n, seat, action, now, \"by\", version)"
                " values (?,?,?,?,?,?,?,?)",
                [code, game_no, n, seat, json.dumps(action), now, by, version],
            )
            if snapshot is not None:
                self.db.execute(
                    "insert into snapshots (code, game_no, n, state) values (?,?,?,?)"
                " on conflict (code, game_no, n) do update set state = excluded.state",
                    [code, game_no, n, json.dumps(snapshot)],
                )
            if end is not None:
                self.record_end(code, game_no, end)
            self.db.execute(
                "update rooms set version = ?, status = ?, updated = ? where code = ?",
                [version, "playing" if end is None else "over", time.time(), code],
            )

    def abandon_game(self, code: str, game_no: int, version: int, end: GameEnd) -> None:
        """A game left unfinished for good: it ends where it stands, and stays in its players' history."""
        with self.transaction():
            self.record_end(code, game_no, end)
            self.db.execute(
                "update rooms set version = ?, status = 'over', updated = ? where code = ?",
                [version, time.time(), code],
            )

    def record_end(self, code: str, game_no: int, end: GameEnd) -> None:
        """The game's end and each player's line of history (within the caller's transaction)."""
        ended = time.time()
        self.db.execute(
            "update games set finished = ?, result = ?, outcome = ? where code = ? and game_no = ?",
            [ended, json.dumps(end.result) if end.result else None, end.outcome, code, game_no],
        )
        game = self.db.execute("select game from games where code = ? and game_no = ?", [code, game_no])
        (game_name,) = game.fetchone()
        if end.rated:
            self.rate_game(game_name, code, game_no, end.rated, ended)
        for place in end.places:
            self.db.execute(
                "insert into plays (code, game_no, seat, player, game, ended, place, score, won, figures)"
                " values (?,?,?,?,?,?,?,?,?,?)",
                [
                    code,
                    game_no,
                    place.seat,
                    place.player,
                    game_name,
                    ended,
                    place.place,
                    place.score,
                    int(place.won),
                    json.dumps(place.figures),
                ],
            )

    def game_log(self, code: str, game_no: int) -> GameLog | None:
        with self.lock:
            games = list(self.db.query("select * from games where code = ? and game_no = ?", [code, game_no]))
            if not games:
                return None
            game = games[0]
            snap = self.db.execute(
                "select n, state from snapshots where code = ? and game_no = ? order by n desc limit 1",
                [code, game_no],
            ).fetchone()
            actions = self.all_actions(code, game_no)
        return GameLog(
            game["players"],
            game["seed"],
            json.loads(game["options"]),
            game["started"],
            json.loads(snap[1]) if snap else None,
            snap[0] if snap else 0,
            actions,
        )

    def all_actions(self, code: str, game_no: int) -> list[tuple[int, dict[str, Any], float, str]]:
        with self.lock:
            return [
                (row[0], json.loads(row[1]), row[2], row[3])
                for row in self.db.execute(
                    "select seat, action, now, \"by\" from actions"
                    " where code = ? and game_no = ? order by n",
                    [code, game_no],
                )
            ]

    # Ratings

    def rate_game(self, game: str, code: str, game_no: int, lines: list[Line], ended: float) -> None:
        """A rated game's lines and its players' new ratings (within the caller's transaction, the one
        that records the game's end)."""
        self.serialize_ratings()
        before = self.ratings_unlocked(game, [line.player for line in lines])
        repeated = ratings.repeats(self.games_together(game, lines, ended), lines, ended)
        after = ratings.rate(before, lines, repeated)
        (last,) = self.db.execute(
            "select coalesce(max(n), 0) from rating_history where game = ?", [game]
        ).fetchone()
        for line in lines:
            rating = after[line.player]
            self.db.execute(
                "insert into rating_history"
                " (game, n, code, game_no, seat, player, side, place, mu, sigma, ended)"
                " values (?,?,?,?,?,?,?,?,?,?,?)",
                [game, last + 1, code, game_no, line.seat, line.player, line.side, line.place]
                + [rating.mu, rating.sigma, ended],
            )
            self.save_rating(game, line.player, rating)

    def games_together(self, game: str, lines: list[Line], ended: float) -> list[ratings.Together]:
        """The rated games of `game` that the first of these players played in the day before `ended`:
        each game's players and when it ended (what ratings.repeats counts)."""
        since = ended - ratings.REPEAT_WINDOW
        rows = self.db.execute(
            "select n, player, ended from rating_history where game = ? and ended > ? and n in"
            " (select n from rating_history where game = ? and player = ? and ended > ?)",
            [game, since, game, lines[0].player, since],
        ).fetchall()
        games: dict[int, tuple[set[str], float]] = {}
        for n, player, when in rows:
            games.setdefault(n, (set(), when))[0].add(player)
        return [(frozenset(players), when) for players, when in games.values()]

    def serialize_ratings(self) -> None:
        """Within a transaction: no other one rates meanwhile (SQLite's write transactions never run
        side by side; PostgreSQL's do, and take a lock here)."""

    def save_rating(self, game: str, player: str, rating: Rating) -> None:
        self.db.execute(
            "insert into ratings (game, player, mu, sigma, ordinal, games) values (?,?,?,?,?,?)"
            " on conflict (game, player) do update set mu = excluded.mu, sigma = excluded.sigma,"
            " ordinal = excluded.ordinal, games = excluded.games",
            [game, player, rating.mu, rating.sigma, rating.ordinal, rating.games],
        )

    def ratings_unlocked(self, game: str, players: list[str]) -> dict[str, Rating]:
        marks = ",".join("?" * len(players))
        rows = self.db.execute(
            f"select player, mu, sigma, games from ratings where game = ? and player in ({marks})",
            [game, *players],
        )
        return {player: Rating(mu, sigma, games) for player, mu, sigma, games in rows}

    def signed_up(self, player: str | None) -> bool:
        """Whether the player has an account, as every seat of a ranked table must."""
        with self.lock:
            found = self.db.execute(
                "select 1 from players where id = ? and username is not null", [player]
            ).fetchone()
        return found is not None

    def ratings_of(self, game: str, players: list[str]) -> dict[str, Rating]:
        """The ratings these players have at this game (a player never rated there has none)."""
        with self.lock:
            return self.ratings_unlocked(game, players)

    def player_ratings(self, player: str) -> dict[str, list[Rating]]:
        """A player's rating at each game they were rated in, after each of their rated games, oldest
        first (the last is the rating they have)."""
        found: dict[str, list[Rating]] = {}
        with self.lock:
            rows = self.db.execute(
                "select game, mu, sigma from rating_history where player = ? order by game, n", [player]
            ).fetchall()
        for game, mu, sigma in rows:
            history = found.setdefault(game, [])
            history.append(Rating(mu, sigma, len(history) + 1))
        return found

    def leaderboard(self, game: str, offset: int, limit: int) -> list[tuple[str, str, Rating]]:
        """A game's ratings (provisional ones too: friends who play only each other are listed from their
        first game), best first, from the `offset`-th: each player's id, username and rating."""
        with self.lock:
            rows = self.db.execute(
                "select r.player, p.username, r.mu, r.sigma, r.games from ratings r"
                " join players p on p.id = r.player where r.game = ?"
                " order by r.ordinal desc, r.player limit ? offset ?",
                [game, limit, offset],
            ).fetchall()
        return [(player, username, Rating(mu, sigma, games)) for player, username, mu, sigma, games in rows]

    def leaderboard_length(self, game: str, most: int) -> int:
        """How many players the game's leaderboard lists, up to `most`."""
        with self.lock:
            (count,) = self.db.execute(
                "select count(*) from (select 1 from ratings where game = ?"
                " order by ordinal desc limit ?) as listed",
                [game, most],
            ).fetchone()
        return count

    def leaderboard_place(self, game: str, player: str) -> int | None:
        """The player's place on the game's leaderboard, 1 the best; None while unrated."""
        with self.lock:
            mine = self.db.execute(
                "select ordinal, sigma from ratings where game = ? and player = ?", [game, player]
            ).fetchone()
            if mine is None:
                return None
            (better,) = self.db.execute(
                "select count(*) from ratings where game = ?"
                " and (ordinal > ? or (ordinal = ? and player < ?))",
                [game, mine[0], mine[0], player],
            ).fetchone()
        return better + 1

    def recompute_ratings(self) -> tuple[int, int, int]:
        """Every rating again from the rated games' lines, in the order they were rated, in one
        transaction: (rated games, ratings, ratings whose numbers changed)."""
        with self.transaction():
            self.serialize_ratings()
            rows = self.db.execute(
                "select game, n, seat, player, side, place, ended from rating_history order by game, n, seat"
            ).fetchall()
            games: dict[tuple[str, int], list[Line]] = {}
            ends: dict[tuple[str, int], float] = {}
            for game, n, seat, player, side, place, ended in rows:
                games.setdefault((game, n), []).append(Line(seat, player, side, place))
                ends[game, n] = ended
            final: dict[tuple[str, str], Rating] = {}
            updated = []
            history = [(game, lines, ends[game, n]) for (game, n), lines in games.items()]
            for (game, n), after in zip(games, ratings.recompute(history), strict=True):
                for line in games[game, n]:
                    rating = after[line.player]
                    updated.append((rating.mu, rating.sigma, game, n, line.seat))
                    final[game, line.player] = rating
            self.db.conn.executemany(
                "update rating_history set mu = ?, sigma = ? where game = ? and n = ? and seat = ?", updated
            )
            stored = {
                (game, player): Rating(mu, sigma, count)
                for game, player, mu, sigma, count in self.db.execute(
                    "select game, player, mu, sigma, games from ratings"
                )
            }
            self.db.execute("delete from ratings")
            for (game, player), rating in final.items():
                self.save_rating(game, player, rating)
        changed = sum(stored.get(key) != rating for key, rating in final.items()) + len(stored.keys() - final)
        return len(games), len(final), changed

    # Players and accounts

    def player(self, player_id: str) -> PlayerRow | None:
        with self.lock:
            row = self.db.execute(
                "select id, name, username, password from players where id = ?", [player_id]
            ).fetchone()
        return PlayerRow(*row) if row else None

    def account(self, username: str) -> PlayerRow | None:
        with self.lock:
            row = self.db.execute(
                "select id, name, username, password from players where handle = ?", [username.lower()]
            ).fetchone()
        return PlayerRow(*row) if row else None

    def sign_up(self, player_id: str, name: str, username: str, password_hash: str) -> None:
        """A new account, as the new player `player_id` (never a player already known: an account is
        never made of another, and no one is renamed); UsernameTaken if the name is someone else's, and
        then nothing is written."""
        with self.transaction():
            taken = self.db.execute("select id from players where handle = ?", [username.lower()]).fetchone()
            if taken is not None:
                raise UsernameTaken(username)
            self.db.execute(
                "insert into players (id, name, username, handle, password, created, signed_up)"
                " values (?,?,?,?,?,?,?)",
                [player_id, name, username, username.lower(), password_hash, time.time(), time.time()],
            )

    def change_password(self, player_id: str, password_hash: str) -> None:
        with self.transaction():
            self.db.execute("update players set password = ? where id = ?", [password_hash, player_id])

    # Sign-in sessions

    def start_session(self, digest: str, player_id: str) -> None:
        with self.transaction():
            self.db.execute(
                "insert into sessions (id, player, created) values (?,?,?)", [digest, player_id, time.time()]
            )

    def session_account(self, digest: str) -> PlayerRow | None:
        """The account a session is signed in to, or None once it has ended (or never was)."""
        with self.lock:
            row = self.db.execute(
                "select p.id, p.name, p.username, p.password from sessions s"
                " join players p on p.id = s.player where s.id = ?",
                [digest],
            ).fetchone()
        return PlayerRow(*row) if row else None

    def end_session(self, digest: str) -> None:
        with self.transaction():
            self.db.execute("delete from sessions where id = ?", [digest])

    def end_other_sessions(self, player_id: str, keeping: str) -> int:
        """Every session of the account but `keeping`: how many ended."""
        with self.transaction():
            ended = self.db.execute(
                "delete from sessions where player = ? and id <> ?", [player_id, keeping]
            ).rowcount
        return ended

    def settings_of(self, player_id: str) -> str | None:
        with self.lock:
            row = self.db.execute("select settings from players where id = ?", [player_id]).fetchone()
        return row[0] if row else None

    def keep_settings(self, player_id: str, settings: str) -> None:
        with self.transaction():
            self.db.execute("update players set settings = ? where id = ?", [settings, player_id])

    def join_guest(self, guest: str, account: str) -> None:
        """A guest signing in to an account: the guest's history, seats and hosted rooms become the
        account's (but a seat at a table where the account already sits stays the guest's). Never an
        account's: one account's games never become another's (ValueError)."""
        if guest == account:
            return
        with self.transaction():
            row = self.db.execute("select username from players where id = ?", [guest]).fetchone()
            if row is not None and row[0] is not None:
                raise ValueError("an account does not join another")
            self.db.execute("update plays set player = ? where player = ?", [account, guest])
            self.db.execute(
                "update seats set uid = ? where uid = ?"
                " and code not in (select code from seats where uid = ?)",
                [account, guest, account],
            )
            self.db.execute(
                "update rooms set host = ? where host = ? and code in (select code from seats where uid = ?)",
                [account, guest, account],
            )
            self.db.execute("delete from players where id = ? and username is null", [guest])

    # History

    def history(self, player: str, offset: int, limit: int) -> list[Played]:
        """The player's games, newest first."""
        with self.lock:
            rows = self.db.execute(
                "select p.code, p.game_no, p.game, g.seats, g.started, p.ended, g.outcome, p.seat, p.place,"
                " p.score from plays p join games g on g.code = p.code and g.game_no = p.game_no"
                " where p.player = ? order by p.ended desc, p.code, p.game_no limit ? offset ?",
                [player, limit, offset],
            ).fetchall()
        return [Played(r[0], r[1], r[2], json.loads(r[3]), *r[4:]) for r in rows]

    def plays_by_game(self, player: str) -> list[tuple[str, bool, int, float, dict[str, Any]]]:
        """Each game the player finished: (game, won, score, duration in seconds, figures)."""
        with self.lock:
            rows = self.db.execute(
                "select p.game, p.won, p.score, p.ended - g.started, p.figures"
                " from plays p join games g on g.code = p.code and g.game_no = p.game_no"
                " where p.player = ? and g.outcome = 'finished'",
                [player],
            ).fetchall()
        return [
            (game, bool(won), score, duration, json.loads(figures))
            for game, won, score, duration, figures in rows
        ]

    def record(self, code: str, game_no: int) -> Record | None:
        with self.lock:
            row = self.db.execute(
                "select game, players, seed, options, seats, started, finished, outcome from games"
                " where code = ? and game_no = ?",
                [code, game_no],
            ).fetchone()
            if row is None:
                return None
            seats = dict(
                self.db.execute(
                    "select player, seat from plays where code = ? and game_no = ?", [code, game_no]
                ).fetchall()
            )
        game, players, seed, options, seated, started, ended, outcome = row
        return Record(
            code,
            game_no,
            game,
            players,
            seed,
            json.loads(options),
            json.loads(seated),
            started,
            ended,
            outcome,
            self.all_actions(code, game_no),
            seats,
        )


def open_store(database_url: str, path: str | os.PathLike[str]) -> Store:
    """PostgreSQL at `database_url` when one is given (zerogames.postgres), else SQLite at `path`."""
    if database_url:
        from zerogames.postgres import PostgresStore  # psycopg is needed only then

        return PostgresStore(database_url)
    return Store(path)
