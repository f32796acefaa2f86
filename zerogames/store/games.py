"""Games and their log: each game's set-up, every action in order, and snapshots along the way, read
back at once to rebuild a room."""

from __future__ import annotations

import json
import time
from typing import Any

from .connection import Connection
from .history import History, logged_actions
from .players import Players
from .rows import GameEnd, GameLog, Logged, RoomRow

# A snapshot every so many actions keeps a rebuild short whatever the game's length.
SNAPSHOT_EVERY = 50


class Games:
    def __init__(self, db: Connection, players: Players, history: History) -> None:
        self.db = db
        self.players = players
        self.history = history

    def start(
        self,
        room: RoomRow,
        players: int,
        options: dict[str, Any],
        state: dict[str, Any],
        started: float | None = None,
        fairness: dict[str, Any] | None = None,
        secret: str | None = None,
    ) -> None:
        """The room row, its seats and the new game's record, with its opening snapshot, at once.

        `started` is the moment by the rooms' clock (the first turn's clock counts from it);
        `fairness` how the seed was made and `secret` what from (zerogames.fairness).
        """
        with self.db.transaction():
            self.db.execute(
                "insert into games"
                " (code, game_no, game, players, seed, options, seats, started, fairness, secret)"
                " values (?,?,?,?,?,?,?,?,?,?) on conflict (code, game_no)"
                " do update set game = excluded.game, players = excluded.players, seed = excluded.seed,"
                " options = excluded.options,"
                " seats = excluded.seats, started = excluded.started, fairness = excluded.fairness,"
                " secret = excluded.secret",
                [
                    room.code,
                    room.game_no,
                    room.game,
                    players,
                    room.seed,
                    json.dumps(options),
                    json.dumps([s.__dict__ for s in room.seats]),
                    time.time() if started is None else started,
                    None if fairness is None else json.dumps(fairness),
                    secret,
                ],
            )
            self.db.execute(
                "insert into snapshots (code, game_no, n, state) values (?,?,?,?)"
                " on conflict (code, game_no, n) do update set state = excluded.state",
                [room.code, room.game_no, 0, json.dumps(state)],
            )
            self.players.seated(room.seats)
            self.db.execute(
                "update rooms set status = ?, game_no = ?, seed = ?, version = ?, updated = ? where code = ?",
                [room.status, room.game_no, room.seed, room.version, time.time(), room.code],
            )

    def append(
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
        written = [
            (
                'insert into actions (code, game_no, n, seat, action, now, "by", version)'
                " values (?,?,?,?,?,?,?,?)",
                [code, game_no, n, seat, json.dumps(action), now, by, version],
            )
        ]
        if snapshot is not None:
            written.append(
                (
                    "insert into snapshots (code, game_no, n, state) values (?,?,?,?)"
                    " on conflict (code, game_no, n) do update set state = excluded.state",
                    [code, game_no, n, json.dumps(snapshot)],
                )
            )
        moved_on = (
            "update rooms set version = ?, status = ?, updated = ? where code = ?",
            [version, "playing" if end is None else "over", time.time(), code],
        )
        with self.db.transaction():
            if end is None:
                # A move: on PostgreSQL one statement, the whole transaction (zerogames.store.postgres).
                self.db.at_once(*written, moved_on)
            else:
                self.db.at_once(*written)
                self.history.record_end(code, game_no, end)
                self.db.at_once(moved_on)

    def abandon(self, code: str, game_no: int, version: int, end: GameEnd) -> None:
        """A game left unfinished for good: it ends where it stands, and stays in its players' history."""
        with self.db.transaction():
            self.history.record_end(code, game_no, end)
            self.db.execute(
                "update rooms set version = ?, status = 'over', updated = ? where code = ?",
                [version, time.time(), code],
            )

    def log(self, code: str, game_no: int) -> GameLog | None:
        """The one read a rebuild makes of a game."""
        with self.db.lock:
            game = self.db.execute(
                "select players, seed, options, started, fairness from games where code = ? and game_no = ?",
                [code, game_no],
            ).fetchone()
            if game is None:
                return None
            snap = self.db.execute(
                "select n, state from snapshots where code = ? and game_no = ? order by n desc limit 1",
                [code, game_no],
            ).fetchone()
            actions = logged_actions(self.db, code, game_no)
        players, seed, options, started, fairness = game
        return GameLog(
            players,
            seed,
            json.loads(options),
            started,
            json.loads(snap[1]) if snap else None,
            snap[0] if snap else 0,
            actions,
            json.loads(fairness) if fairness else None,
        )

    def actions(self, code: str, game_no: int) -> list[Logged]:
        return logged_actions(self.db, code, game_no)
