"""Each finished game's analysis (zerogames.analysis), per seat: worked out once, then kept."""

from __future__ import annotations

import json
from typing import Any

from .connection import Connection


class Analyses:
    def __init__(self, db: Connection) -> None:
        self.db = db

    def of(self, code: str, game_no: int, seat: int) -> list[dict[str, Any]] | None:
        """The seat's analysis, if it was worked out."""
        row = self.db.row(
            "select decisions from analyses where code = ? and game_no = ? and seat = ?",
            [code, game_no, seat],
        )
        return json.loads(row[0]) if row else None

    def keep(self, code: str, game_no: int, seat: int, decisions: list[dict[str, Any]]) -> None:
        """Keep the seat's analysis (another process working it out too keeps the same: the first stays)."""
        with self.db.transaction():
            self.db.execute(
                "insert into analyses (code, game_no, seat, decisions) values (?,?,?,?)"
                " on conflict (code, game_no, seat) do nothing",
                [code, game_no, seat, json.dumps(decisions)],
            )
