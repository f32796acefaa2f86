"""Rooms and their seats: the lobby's state of each room, and how often each seat moved device."""

from __future__ import annotations

import json
import time

from .connection import Connection
from .rows import RoomRow, SeatRow


class Rooms:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def code_taken(self, code: str) -> bool:
        """A room has the code, or had it and played games under it: the history keeps it."""
        return (
            self.db.row(
                "select 1 from rooms where code = ? union all select 1 from games where code = ?",
                [code, code],
            )
            is not None
        )

    def idle(self, before: float) -> list[str]:
        """Rooms never started or finished, unchanged since `before`: the ones kept no longer."""
        return [
            row[0]
            for row in self.db.rows(
                "select code from rooms where status != 'playing' and updated < ?", [before]
            )
        ]

    def drop(self, code: str, before: float) -> bool:
        """The room, its seats and its talk, gone if still idle since `before` (its games stay in the
        history, reported messages with the operator)."""
        with self.db.transaction():
            idle = self.db.execute(
                "select 1 from rooms where code = ? and status != 'playing' and updated < ?", [code, before]
            ).fetchone()
            if idle:
                self.db.execute("delete from seats where code = ?", [code])
                self.db.execute("delete from seat_moves where code = ?", [code])
                self.db.execute("delete from talk where code = ?", [code])
                self.db.execute("delete from rooms where code = ?", [code])
        return idle is not None

    def save(self, room: RoomRow) -> None:
        """The room's row and all its seats, in one transaction (lobby changes, starts, rematches)."""
        with self.db.transaction():
            self.write(room)

    def seat_moves(self, code: str, seat: int) -> int:
        row = self.db.row("select moves from seat_moves where code = ? and seat = ?", [code, seat])
        return row[0] if row else 0

    def save_moved_seat(self, room: RoomRow, seat: int) -> None:
        """The room with a seat moved to another device, and that seat's moves counted, at once."""
        with self.db.transaction():
            self.write(room)
            self.db.execute(
                "insert into seat_moves (code, seat, moves) values (?, ?, 1)"
                " on conflict(code, seat) do update set moves = seat_moves.moves + 1",
                [room.code, seat],
            )

    def write(self, room: RoomRow) -> None:
        """The room's row and all its seats (within a transaction)."""
        now = time.time()
        self.db.execute(
            "insert into rooms"
            " (code, game, options, host, status, game_no, seed, version, created, updated, ranked, secret)"
            " values (?,?,?,?,?,?,?,?,?,?,?,?) on conflict(code) do update set options = excluded.options,"
            " host = excluded.host, status = excluded.status, game_no = excluded.game_no,"
            " seed = excluded.seed, version = excluded.version, updated = excluded.updated,"
            " ranked = excluded.ranked, secret = excluded.secret",
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
                room.secret,
            ],
        )
        self.db.execute("delete from seats where code = ?", [room.code])
        for s in room.seats:
            self.db.execute(
                "insert into seats (code, seat, uid, name, bot, contribution) values (?,?,?,?,?,?)",
                [room.code, s.seat, s.uid, s.name, s.bot, s.contribution],
            )

    def load(self, code: str) -> RoomRow | None:
        with self.db.lock:
            row = self.db.execute(
                "select code, game, options, host, status, game_no, seed, version, ranked, secret from rooms"
                " where code = ?",
                [code],
            ).fetchone()
            if row is None:
                return None
            seats = [
                SeatRow(*seat)
                for seat in self.db.execute(
                    "select seat, uid, name, bot, contribution from seats where code = ? order by seat",
                    [code],
                )
            ]
        code, game, options, host, status, game_no, seed, version, ranked, secret = row
        options = json.loads(options)
        return RoomRow(code, game, options, host, status, game_no, seed, version, seats, bool(ranked), secret)

    def kick(self, code: str, uid: str) -> None:
        self.db.execute(
            "insert into kicked (code, uid) values (?,?) on conflict (code, uid) do nothing", [code, uid]
        )

    def kicked(self, code: str) -> frozenset[str]:
        return frozenset(row[0] for row in self.db.rows("select uid from kicked where code = ?", [code]))

    def won(self, code: str, game_no: int, names: list[str]) -> None:
        """The winners of one of the room's games, by name (within the transaction ending it)."""
        self.db.executemany(
            "insert into series_wins (code, game_no, name) values (?,?,?) on conflict do nothing",
            [[code, game_no, name] for name in names],
        )

    def series(self, code: str) -> tuple[tuple[str, int], ...]:
        """Games won by each name at the table, in the order they first won."""
        rows = self.db.rows(
            "select name, count(*) from series_wins where code = ? group by name order by min(game_no), name",
            [code],
        )
        return tuple((name, wins) for name, wins in rows)

    def unfinished(self) -> list[str]:
        return [code for (code,) in self.db.rows("select code from rooms where status != 'over'")]
