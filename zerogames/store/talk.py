"""Table talk (zerogames.talk): each room's latest lines, who mutes whom, and the lines players
reported for the operator to read."""

from __future__ import annotations

import time

from zerogames.talk import KEPT, Said

from .connection import Connection


class Talk:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def add(self, code: str, said: Said) -> None:
        """One more line of the room's talk; the room keeps its latest KEPT (within a transaction)."""
        self.db.execute(
            "insert into talk (code, n, uid, name, kind, text, at) values (?,?,?,?,?,?,?)",
            [code, said.n, said.uid, said.name, said.kind, said.text, said.at],
        )
        self.db.execute("delete from talk where code = ? and n <= ?", [code, said.n - KEPT])

    def recent(self, code: str) -> tuple[Said, ...]:
        rows = self.db.rows("select n, uid, name, kind, text, at from talk where code = ? order by n", [code])
        return tuple(Said(*row) for row in rows)

    def mute(self, muter: str, muted: str, on: bool) -> None:
        """The muter hears no more of the muted player (or again), in every room, from now on."""
        with self.db.transaction():
            if on:
                self.db.execute(
                    "insert into mutes (muter, muted, at) values (?,?,?)"
                    " on conflict (muter, muted) do nothing",
                    [muter, muted, time.time()],
                )
            else:
                self.db.execute("delete from mutes where muter = ? and muted = ?", [muter, muted])

    def muted(self, muter: str) -> frozenset[str]:
        return frozenset(row[0] for row in self.db.rows("select muted from mutes where muter = ?", [muter]))

    def report(self, code: str, said: Said, reporter: str) -> None:
        """A line reported by a player: kept, with its room, for the operator (once per reporter)."""
        with self.db.transaction():
            self.db.execute(
                "insert into reports (code, n, reporter, uid, name, text, said, at) values (?,?,?,?,?,?,?,?)"
                " on conflict (code, n, reporter) do nothing",
                [code, said.n, reporter, said.uid, said.name, said.text, said.at, time.time()],
            )

    def reports(self) -> list[tuple[str, str, str, str, float]]:
        """Every report, newest first: (room, the sender's name, their identity, what they said, when
        it was reported)."""
        return [
            tuple(row)
            for row in self.db.rows("select code, name, uid, text, at from reports order by at desc")
        ]
